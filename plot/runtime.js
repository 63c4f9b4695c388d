function (spec) {
  // routelab figure runtime: finds this figure's container, makes sure
  // window.echarts exists (unpacking the embedded library once per page),
  // then draws. Everything lives in this function: showing a figure twice
  // declares nothing global but the window.__routelab* bookkeeping below.
  "use strict";
  var w = window, d = document;
  var el = claim();
  if (!el) {
    if (w.console) console.error("routelab: no container found for figure " + spec.id);
    return;
  }
  w.__routelabSeq = (w.__routelabSeq || 0) + 1;
  el.id = spec.id + "-" + w.__routelabSeq;
  library().then(function (echarts) {
    if (echarts && spec.packed) {
      return inflate(spec.packed).then(function (src) {
        spec.option = evaluate(src);
        mount(echarts);
      });
    }
    if (echarts) {
      mount(echarts);
    } else if (el.querySelector("img")) {
      note("Static picture: its interactive form draws with the chart library an earlier figure brings, " +
        "and none on this page does. To redraw it, show this figure with .Full().");
    } else {
      fail("This is a light figure output: it draws with the chart library that a full routelab figure " +
        "earlier on the page provides, and there is none here. To draw it, show the figure with .Full().", "warn");
    }
  }).catch(function (err) {
    fail("routelab could not draw this figure: " + (err && err.message ? err.message : err), "error");
  });

  // claim picks this fragment's container: the element just before the
  // running script when the front end keeps scripts in place, else the first
  // unclaimed container of this figure (front ends that evaluate scripts
  // elsewhere still insert outputs in order).
  function claim() {
    var s = d.currentScript, prev = s && s.previousElementSibling;
    if (fits(prev)) return mark(prev);
    var all = d.querySelectorAll("div[data-routelab-figure]");
    for (var i = 0; i < all.length; i++) {
      if (fits(all[i])) return mark(all[i]);
    }
    return null;
  }
  function fits(e) {
    return !!e && e.getAttribute("data-routelab-figure") === spec.id &&
      e.getAttribute("data-routelab-key") === spec.key && !e.hasAttribute("data-routelab-state");
  }
  function mark(e) {
    e.setAttribute("data-routelab-state", "loading");
    return e;
  }

  function library() {
    if (w.echarts) return Promise.resolve(w.echarts);
    if (spec.lib) return w.__routelabECharts || (w.__routelabECharts = unpack(spec.lib));
    return new Promise(function (resolve) {
      var waited = 0;
      (function poll() {
        if (w.echarts) return resolve(w.echarts);
        if (w.__routelabECharts) return w.__routelabECharts.then(resolve, function () { resolve(null); });
        if ((waited += 100) > spec.wait) return resolve(null);
        setTimeout(poll, 100);
      })();
    });
  }

  // unpack installs the gzip+base64 library with define, module and exports
  // shadowed, so require.js (classic Notebook, nbconvert) sees no anonymous
  // define() and the library lands on window.echarts.
  function unpack(b64) {
    return inflate(b64).then(function (src) {
      if (!w.echarts) run("(function (define, module, exports) {\n" + src + "\n}).call(window);");
      if (!w.echarts) throw new Error("the embedded ECharts library did not install");
      return w.echarts;
    });
  }

  // inflate decodes gzip+base64 text: the library, and a light fragment's
  // packed option.
  function inflate(b64) {
    if (typeof DecompressionStream !== "function") {
      return Promise.reject(new Error("this browser lacks DecompressionStream (Chrome 80, Firefox 113, Safari 16.4 or newer)"));
    }
    var bin = atob(b64), bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
  }

  // evaluate turns a packed option's source (an expression with functions
  // in it, as an unpacked fragment writes inline) into the function that
  // builds it afresh for every mount.
  function evaluate(src) {
    var key = "__routelabOption" + w.__routelabSeq;
    run("window." + key + " = function () { return (" + src + "); };");
    var f = w[key];
    delete w[key];
    if (typeof f !== "function") throw new Error("the figure's packed option did not evaluate");
    return f;
  }

  // run runs source as a page script, as the front end runs the fragment's.
  function run(src) {
    var s = d.createElement("script");
    s.text = src;
    (d.head || d.documentElement).appendChild(s);
    s.parentNode.removeChild(s);
  }

  function mount(echarts) {
    var theme = spec.theme === "auto" ? detect() : spec.theme;
    el.setAttribute("data-routelab-theme", theme);
    el.textContent = ""; // the placeholder or static figure for pages without scripts
    el.style.height = spec.height + "px";
    el.style.maxWidth = "";
    var chart = echarts.init(el, theme === "dark" ? "dark" : null, { renderer: "canvas" });
    var option = spec.option();
    var tb = option.toolbox, save = tb && tb.feature && tb.feature.saveAsImage;
    if (save && !save.backgroundColor) save.backgroundColor = theme === "dark" ? "#100c2a" : "#ffffff";
    chart.on("finished", function () { el.setAttribute("data-routelab-state", "ready"); });
    chart.setOption(option);
    var observers = [];
    if (typeof ResizeObserver === "function") {
      var ro = new ResizeObserver(function () {
        if (!el.isConnected) return stop();
        requestAnimationFrame(function () { if (!chart.isDisposed()) chart.resize(); });
      });
      ro.observe(el);
      observers.push(ro);
    }
    if (spec.theme === "auto" && typeof MutationObserver === "function" && d.body) {
      var mo = new MutationObserver(function () {
        if (!el.isConnected) return stop();
        if (detect() !== theme) { stop(); mount(echarts); }
      });
      mo.observe(d.body, { attributes: true, attributeFilter: ["class", "data-jp-theme-light"] });
      observers.push(mo);
    }
    function stop() {
      for (var i = 0; i < observers.length; i++) observers[i].disconnect();
      if (!chart.isDisposed()) chart.dispose();
    }
  }

  // detect tells whether the figure sits on a dark page: JupyterLab and VS
  // Code say so on <body>; elsewhere the nearest opaque background, or else
  // the text colour, decides.
  function detect() {
    var b = d.body, jp = b && b.getAttribute("data-jp-theme-light");
    if (jp === "true" || jp === "false") return jp === "true" ? "light" : "dark";
    if (b && /\bvscode-(dark|high-contrast)\b/.test(b.className)) return "dark";
    if (b && /\bvscode-light\b/.test(b.className)) return "light";
    for (var n = el.parentElement; n; n = n.parentElement) {
      var bg = rgba(getComputedStyle(n).backgroundColor);
      if (bg && bg[3] > 0.5) return luminance(bg) < 0.4 ? "dark" : "light";
    }
    var fg = rgba(getComputedStyle(el).color);
    return fg && luminance(fg) > 0.6 ? "dark" : "light";
  }
  function rgba(css) {
    var m = /rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:[\s,/]+([\d.]+))?/.exec(css || "");
    return m ? [+m[1], +m[2], +m[3], m[4] === undefined ? 1 : +m[4]] : null;
  }
  function luminance(c) {
    return (0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]) / 255;
  }

  // note keeps the static image and says, in one line under it, why the
  // interactive figure is missing and how to get it.
  function note(message) {
    el.setAttribute("data-routelab-state", "static");
    var p = d.createElement("p");
    p.className = "routelab-figure-note";
    p.style.cssText = "margin:0.3em 0 0;font:12px/1.4 sans-serif;color:#868e96;";
    p.textContent = message;
    el.appendChild(p);
    if (w.console) console.warn("routelab figure " + spec.id + ": " + message);
  }

  function fail(message, level) {
    el.setAttribute("data-routelab-state", "error");
    el.style.height = "auto";
    el.textContent = "";
    var p = d.createElement("p");
    p.className = "routelab-figure-message";
    p.style.cssText = "margin:0.5em 0;padding:0.6em 0.8em;border:1px solid #868e96;border-radius:4px;font:13px/1.4 sans-serif;";
    p.textContent = message;
    el.appendChild(p);
    if (w.console) console[level]("routelab figure " + spec.id + ": " + message);
  }
}
