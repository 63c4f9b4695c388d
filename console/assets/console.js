// routelab console page. The Go process runs the simulation and streams
// frames (server-sent events); this script only renders them and posts the
// controls. It computes no result: every number shown comes from a frame.
(function () {
  "use strict";
  var d = document;
  var reduced = window.matchMedia("(prefers-reduced-motion: reduce)");
  var $ = function (id) { return d.getElementById(id); };
  var ui = {
    badge: $("policy-badge"), runState: $("run-state"), message: $("message"),
    cluster: $("cluster"), replicas: $("replicas"), marks: $("marks"), router: $("router"), routerPolicy: $("router-policy"),
    policy: $("policy"), pause: $("pause"), reset: $("reset"), burst: $("burst"), replica: $("replica"),
    straggler: $("straggler"), fail: $("fail"), recover: $("recover"),
    rate: $("rate"), rateOut: $("rate-out"), speed: $("speed"), scenario: $("scenario"),
    heterogeneity: $("heterogeneity"), replicasN: $("replicas-n"), seed: $("seed"),
    compare: $("compare"), timeline: $("timeline"), dlJSON: $("dl-json"), dlGo: $("dl-go")
  };
  var page = {
    id: null, state: null, frame: null, source: null, seq: 0,
    colors: {}, rows: [], marks: new Map(), items: [], frames: 0, refused: false
  };

  // ---- the session and its stream ----

  function start() {
    post("/api/pages", {}).then(function (r) {
      page.id = r.id;
      ui.dlJSON.href = "/api/pages/" + r.id + "/session.json";
      ui.dlGo.href = "/api/pages/" + r.id + "/session.go";
      connect();
    }).catch(function (err) { say("The console did not start a simulation: " + err.message, true); });
  }

  // connect opens the page's event stream; a page that prefers reduced
  // motion asks for at most a frame a second.
  function connect() {
    if (page.source) page.source.close();
    var es = new EventSource("/api/pages/" + page.id + "/events?every=" + (reduced.matches ? 1000 : 0));
    page.source = es;
    es.addEventListener("hello", function (e) { onHello(JSON.parse(e.data)); });
    es.addEventListener("state", function (e) { onState(JSON.parse(e.data)); });
    es.addEventListener("frame", function (e) { render(JSON.parse(e.data).frame); });
    es.addEventListener("ack", function () { if (page.refused) say(""); });
    es.addEventListener("control-error", function (e) { say(JSON.parse(e.data).error, true, true); });
    es.addEventListener("problem", function (e) { say(JSON.parse(e.data).error, true); });
    es.onopen = function () { visibility(); };
    es.onerror = function () {
      if (es.readyState === EventSource.CLOSED) {
        // The server freed this page's simulation (it was away too long,
        // or the console restarted): start a new one.
        say("The simulation was restarted: this page was away too long, or the console restarted.", true);
        start();
      } else {
        ui.runState.textContent = "reconnecting…";
      }
    };
  }

  function post(url, body) {
    return fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
      .then(function (resp) {
        return resp.json().then(function (data) {
          if (!resp.ok) throw new Error(data.error || resp.statusText);
          return data;
        });
      });
  }

  // control posts one control; the outcome comes back on the stream (an
  // ack, or an error that names the bad value).
  function control(msg) {
    msg.seq = ++page.seq;
    return post("/api/pages/" + page.id + "/control", msg).catch(function () { /* shown from the stream */ });
  }

  function visibility() { control({ action: "visibility", hidden: d.hidden }); }

  // say shows a message (an error in red); a refused control's message
  // stays until a control is accepted.
  function say(text, error, refused) {
    page.refused = !!refused;
    ui.message.textContent = text;
    ui.message.className = "message" + (error ? " error" : "");
  }

  // ---- what the server tells the page ----

  function onHello(h) {
    page.colors = {};
    ui.policy.textContent = "";
    var groups = {};
    h.policies.forEach(function (p) {
      page.colors[p.name] = p.color;
      var g = groups[p.source];
      if (!g) {
        g = groups[p.source] = d.createElement("optgroup");
        g.label = p.source === "built-in" ? "Built-in" : "From " + p.source;
        ui.policy.appendChild(g);
      }
      var o = d.createElement("option");
      o.value = p.name;
      o.textContent = p.name + " — " + p.about;
      g.appendChild(o);
    });
    ui.scenario.textContent = "";
    h.scenarios.forEach(function (s) {
      var o = d.createElement("option");
      o.value = s.name;
      o.textContent = s.name + " — " + s.about;
      ui.scenario.appendChild(o);
    });
    ui.replicasN.max = h.max_replicas;
    $("protocol").textContent = "The specification's comparison: " + h.protocol + "; the built-in four" +
      (h.policies_file ? ", the policies of " + h.policies_file : "") + " and the policy routing now.";
    var problem = $("policies-problem");
    problem.hidden = !h.policies_problem;
    problem.querySelector("pre").textContent = h.policies_problem || "";
  }

  function onState(st) {
    var su = st.setup, was = page.state ? page.state.setup : {};
    page.state = st;
    // Show what the setup changed (a reset, the dilation); fields edited
    // but not applied yet are left alone.
    [["scenario", ui.scenario], ["heterogeneity", ui.heterogeneity], ["replicas", ui.replicasN], ["seed", ui.seed], ["speed", ui.speed]]
      .forEach(function (f) { if (su[f[0]] !== was[f[0]]) f[1].value = String(su[f[0]]); });
    if (ui.replica.options.length !== su.replicas) {
      var keep = ui.replica.value || "1";
      ui.replica.textContent = "";
      for (var i = 1; i <= su.replicas; i++) {
        var o = d.createElement("option");
        o.value = o.textContent = String(i);
        ui.replica.appendChild(o);
      }
      ui.replica.value = Math.min(+keep, su.replicas);
    }
    ui.pause.setAttribute("aria-pressed", String(st.user_paused));
    ui.pause.textContent = st.user_paused ? "Resume" : "Pause";
    renderTimeline(st.timeline);
    if (page.frame) {
      renderState(page.frame);
      markScheduled(page.frame.now_ms);
    }
  }

  // markScheduled sets apart the events still to come (a burst's end).
  function markScheduled(now) {
    page.items.forEach(function (it) { it.li.classList.toggle("scheduled", it.at > now); });
  }

  function renderTimeline(items) {
    ui.timeline.textContent = "";
    page.items = items.map(function (it) {
      var li = d.createElement("li");
      li.textContent = it.text + (it.live ? "" : " (the scenario's)");
      if (it.live) li.className = "live";
      ui.timeline.appendChild(li);
      return { at: it.at_ms, li: li };
    });
    if (!items.length) {
      var li = d.createElement("li");
      li.textContent = "nothing yet: the triggers and the traffic slider add to it";
      ui.timeline.appendChild(li);
    }
  }

  // ---- rendering a frame ----

  function render(f) {
    var last = page.frame || {};
    // The picker and the slider follow the session when it changes, and
    // otherwise keep what the user chose while the control is on its way.
    if (f.policy !== last.policy) ui.policy.value = f.policy;
    if (f.rate_rps !== last.rate_rps) {
      ui.rate.value = f.rate_rps;
      ui.rateOut.textContent = f.rate_rps + " req/s";
    }
    page.frame = f;
    page.frames++;
    d.documentElement.setAttribute("data-frames", page.frames);
    d.documentElement.classList.toggle("still", reduced.matches);
    renderState(f);
    renderReadouts(f);
    renderReplicas(f);
    renderMarks(f);
    markScheduled(f.now_ms);
  }

  function renderState(f) {
    var color = page.colors[f.policy] || "";
    ui.badge.querySelector(".swatch").style.background = color;
    ui.badge.querySelector(".name").textContent = f.policy;
    ui.routerPolicy.textContent = f.policy;
    ui.routerPolicy.style.color = color;
    ui.router.style.borderColor = color;
    var st = page.state || {};
    var what = f.error ? "ended: " + f.error : f.done ? "ended" : st.hidden ? "paused while the page is hidden" :
      f.paused ? "paused" : "running at " + f.speed + " simulated ms a second";
    ui.runState.textContent = f.scenario + " · seed " + (st.setup ? st.setup.seed : "") + " · " + what;
  }

  function fmt(x, digits, unit) { return x === null || x === undefined ? "—" : x.toFixed(digits) + unit; }

  function renderReadouts(f) {
    $("r-time").textContent = (f.now_ms / 1000).toFixed(2) + " s";
    $("r-p50").textContent = fmt(f.p50_ms, 1, " ms");
    $("r-p90").textContent = fmt(f.p90_ms, 1, " ms");
    $("r-p99").textContent = fmt(f.p99_ms, 1, " ms");
    $("r-miss").textContent = f.slo_miss_rate === null ? "—" : (100 * f.slo_miss_rate).toFixed(1) + " %";
    $("r-throughput").textContent = f.throughput_rps.toFixed(0) + " /s";
    $("r-arrivals").textContent = f.arrivals;
    $("r-completed").textContent = f.completed;
    $("r-shed").textContent = f.shed;
    $("r-unfinished").textContent = f.unfinished;
    $("r-rate").textContent = f.rate_rps + " req/s";
    $("slo").textContent = f.slo_ms;
  }

  // renderReplicas keeps a row per replica: its speed, health, counts and
  // share of the last second's assignments.
  function renderReplicas(f) {
    if (page.rows.length !== f.replicas.length) buildRows(f.replicas.length);
    var summary = [];
    f.replicas.forEach(function (r, i) {
      var row = page.rows[i];
      row.el.classList.toggle("failed", !r.healthy);
      row.el.setAttribute("data-healthy", r.healthy);
      row.el.setAttribute("data-waiting", r.waiting);
      row.el.setAttribute("data-in-flight", r.in_flight);
      row.speed.textContent = r.speed_ms.toFixed(r.speed_ms < 100 ? 1 : 0) + " ms";
      var status = !r.healthy ? "failed" : r.slowdown > 1.0001 ? "slowed ×" + +r.slowdown.toFixed(2) : "healthy";
      row.status.textContent = status;
      row.status.className = "status" + (!r.healthy ? " failed" : r.slowdown > 1.0001 ? " slowed" : "");
      row.counts.textContent = r.waiting + " waiting · " + r.in_flight + " in flight";
      row.shareText.textContent = Math.round(100 * r.share) + " %";
      row.shareBar.style.width = (100 * r.share).toFixed(1) + "%";
      summary.push("replica " + r.id + ": " + status + ", " + r.waiting + " waiting, " + r.in_flight + " in flight, " + Math.round(100 * r.share) + "% of assignments");
    });
    ui.cluster.setAttribute("aria-label", "The cluster routed by " + f.policy + ". " + summary.join("; "));
  }

  function buildRows(n) {
    ui.replicas.textContent = "";
    page.rows = [];
    for (var i = 0; i < n; i++) {
      var el = d.createElement("div");
      el.className = "replica";
      el.setAttribute("data-replica", i + 1);
      el.innerHTML = '<div class="replica-label"><b>Replica ' + (i + 1) + '</b> · <span class="speed"></span><br>' +
        '<span class="status"></span> <span class="counts"></span></div>' +
        '<div class="lane"><span class="slot"></span></div>' +
        '<div class="share"><span class="share-text"></span><span class="bar"><i></i></span></div>';
      ui.replicas.appendChild(el);
      page.rows.push({
        el: el, speed: el.querySelector(".speed"), status: el.querySelector(".status"), counts: el.querySelector(".counts"),
        lane: el.querySelector(".lane"), slot: el.querySelector(".slot"),
        shareText: el.querySelector(".share-text"), shareBar: el.querySelector(".bar i")
      });
    }
  }

  // geometry is where marks go, in the cluster's coordinates: per replica
  // where its new requests enter from the router (beside it on a wide
  // page, below it on a narrow one), its in-flight slot, the spacing of its
  // queue and where completed requests leave. It is measured afresh for
  // every frame, as rows change height.
  function geometry() {
    var box = ui.cluster.getBoundingClientRect(), rt = ui.router.getBoundingClientRect();
    var lanes = [];
    page.rows.forEach(function (row) {
      var lane = row.lane.getBoundingClientRect(), slot = row.slot.getBoundingClientRect();
      var y = slot.top + slot.height / 2 - box.top, x = slot.left + slot.width / 2 - box.left;
      var beside = rt.right <= lane.left;
      lanes.push({
        entry: beside ? [rt.right - box.left, y] : [rt.left + rt.width / 2 - box.left, rt.bottom - box.top],
        slot: [x, y], exit: [x + 28, y],
        step: Math.max(2, Math.min(12, (slot.left - lane.left - 6) / 51))
      });
    });
    return lanes;
  }

  // renderMarks moves each request's mark: new ones start at the router,
  // waiting ones queue to the left of the in-flight slot, and ones that
  // have completed move on out of the slot and fade (at once, with reduced
  // motion).
  function renderMarks(f) {
    var lanes = geometry(), seen = new Set(), fresh = [];
    f.replicas.forEach(function (r, i) {
      var lane = lanes[i];
      if (!lane) return;
      (r.requests || []).forEach(function (m, k) {
        seen.add(m.seq);
        var q = r.in_flight ? k : k + 1; // 0 is the slot
        var x = lane.slot[0] - (q === 0 ? 0 : 14 + (q - 1) * lane.step), y = lane.slot[1];
        var mk = page.marks.get(m.seq);
        if (!mk) {
          mk = { el: d.createElement("span") };
          mk.el.setAttribute("data-seq", m.seq);
          place(mk.el, lane.entry[0], lane.entry[1]);
          ui.marks.appendChild(mk.el);
          page.marks.set(m.seq, mk);
          fresh.push(mk);
        }
        mk.el.className = "mark" + (m.on_time ? "" : " late");
        mk.el.setAttribute("data-replica", r.id);
        mk.x = x; mk.y = y; mk.inFlight = q === 0; mk.exit = lane.exit;
      });
    });
    if (fresh.length && !reduced.matches) ui.marks.getBoundingClientRect(); // start new marks at the router
    page.marks.forEach(function (mk, seq) {
      if (seen.has(seq)) {
        place(mk.el, mk.x, mk.y);
        return;
      }
      page.marks.delete(seq);
      if (reduced.matches) {
        mk.el.remove();
        return;
      }
      if (mk.inFlight) place(mk.el, mk.exit[0], mk.exit[1]); // completed: on out of the slot
      mk.el.classList.add("gone");
      setTimeout(function () { mk.el.remove(); }, 500);
    });
  }

  // A resized cluster moves the marks, even while paused (no frames come).
  if (typeof ResizeObserver === "function") {
    new ResizeObserver(function () { if (page.frame) renderMarks(page.frame); }).observe(ui.cluster);
  }

  function place(el, x, y) { el.style.transform = "translate(" + x.toFixed(1) + "px," + y.toFixed(1) + "px)"; }

  // ---- controls ----

  function setupFromFields() {
    return {
      scenario: ui.scenario.value, rate_rps: +ui.rate.value, heterogeneity: ui.heterogeneity.value,
      replicas: +ui.replicasN.value, seed: +ui.seed.value, speed: +ui.speed.value, policy: ui.policy.value
    };
  }

  ui.policy.addEventListener("change", function () { control({ action: "policy", policy: ui.policy.value }); });
  ui.pause.addEventListener("click", function () {
    control({ action: page.state && page.state.user_paused ? "resume" : "pause" });
  });
  ui.reset.addEventListener("click", function () {
    d.querySelectorAll(".mark").forEach(function (m) { m.remove(); });
    page.marks.clear();
    control({ action: "reset", setup: setupFromFields() });
  });
  ui.burst.addEventListener("click", function () { control({ action: "burst" }); });
  ui.straggler.addEventListener("click", function () { control({ action: "straggler", replica: +ui.replica.value }); });
  ui.fail.addEventListener("click", function () { control({ action: "fail", replica: +ui.replica.value }); });
  ui.recover.addEventListener("click", function () { control({ action: "recover", replica: +ui.replica.value }); });
  ui.rate.addEventListener("input", function () { ui.rateOut.textContent = ui.rate.value + " req/s"; });
  ui.rate.addEventListener("change", function () { control({ action: "rate", value: +ui.rate.value }); });
  ui.speed.addEventListener("change", function () { control({ action: "speed", value: +ui.speed.value }); });
  ui.compare.addEventListener("click", compare);
  d.addEventListener("visibilitychange", visibility);
  reduced.addEventListener("change", function () { if (page.id) connect(); });

  // ---- comparisons ----

  function compare() {
    var on = d.querySelector("input[name=compare-on]:checked").value;
    ui.compare.disabled = true;
    say("Comparing policies: 10 seeds each…");
    post("/api/pages/" + page.id + "/compare", { on: on }).then(function (res) {
      return library().then(function () { showComparison(res); });
    }).then(function () { say(""); }, function (err) { say(err.message, true); })
      .then(function () { ui.compare.disabled = false; });
  }

  // library loads the charting library this console embeds, once; with
  // reduced motion its figures are drawn without animation.
  function library() {
    if (window.echarts) return Promise.resolve();
    return new Promise(function (resolve, reject) {
      var s = d.createElement("script");
      s.src = "/assets/echarts.js";
      s.onload = function () {
        var init = window.echarts.init;
        window.echarts.init = function () {
          var chart = init.apply(this, arguments), setOption = chart.setOption;
          chart.setOption = function (option) {
            if (reduced.matches && option) option.animation = false;
            return setOption.apply(chart, arguments);
          };
          return chart;
        };
        resolve();
      };
      s.onerror = function () { reject(new Error("the charting library did not load")); };
      d.head.appendChild(s);
    });
  }

  // showComparison shows plot's table and figure; the figure's script is
  // created anew, as scripts set through innerHTML do not run.
  function showComparison(res) {
    var section = $("comparison");
    section.hidden = false;
    $("comparison-title").textContent = res.title;
    $("comparison-note").textContent = "Compared " + res.note + ", in " + res.seconds.toFixed(1) + " s.";
    $("comparison-table").innerHTML = res.table;
    var fig = $("comparison-figure");
    fig.innerHTML = res.figure;
    fig.querySelectorAll("script").forEach(function (old) {
      var s = d.createElement("script");
      s.text = old.text;
      old.parentNode.replaceChild(s, old);
    });
    section.scrollIntoView({ behavior: reduced.matches ? "auto" : "smooth", block: "start" });
  }

  start();
})();
