package plot

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowser draws the sample figures in real headless Chromium, offline,
// in each setting a figure meets: a standalone page, a classic-Notebook page
// with require.js, the same figure twice, light fragments, the ways front
// ends insert outputs, and dark pages.
func TestBrowser(t *testing.T) {
	b := startBrowser(t)

	t.Run("standalone-page", func(t *testing.T) {
		figs := allSampleFigures(t)
		page, err := NewPage("Samples", figs...).Render()
		if err != nil {
			t.Fatal(err)
		}
		checkAll(t, b.load(t, "/standalone", page, colorsOf(figs...)), figs)
	})

	t.Run("requirejs-page", func(t *testing.T) {
		figs := allSampleFigures(t)
		var body strings.Builder
		for _, f := range figs {
			body.WriteString(f.Fragment())
		}
		head := `<script src="/require.js"></script>`
		rep := b.load(t, "/requirejs", htmlDoc(head, "", body.String()), colorsOf(figs...))
		checkAll(t, rep, figs)
		var amd bool
		if err := chromedp.Run(rep.tab, chromedp.Evaluate(`typeof define === "function" && !!define.amd && typeof require === "function"`, &amd)); err != nil || !amd {
			t.Errorf("require.js was not active on the page (%v)", err)
		}
	})

	t.Run("same-figure-twice", func(t *testing.T) {
		f := sampleFigure(t, "bar")
		rep := b.load(t, "/twice", htmlDoc("", "", f.Fragment()+f.Fragment()), seriesColors(f))
		checkAll(t, rep, []*Figure{f, f})
		if rep.Figures[0].ID == rep.Figures[1].ID {
			t.Errorf("both containers have id %s", rep.Figures[0].ID)
		}
	})

	t.Run("light-after-full", func(t *testing.T) {
		full, light := sampleFigure(t, "bar"), sampleFigure(t, "line-events")
		rep := b.load(t, "/light-after-full", htmlDoc("", "", full.Fragment()+light.LightFragment()), colorsOf(full, light))
		checkAll(t, rep, []*Figure{full, light})
	})

	t.Run("light-alone", func(t *testing.T) {
		f := sampleFigure(t, "line-events")
		start := time.Now()
		rep := b.load(t, "/light-alone", htmlDoc("", "", f.LightFragment()), nil)
		rep.clean(t) // a warning, not an error
		got := rep.Figures[0]
		if got.State != "error" || got.Canvas || !strings.Contains(got.Text, "light figure output") || !strings.Contains(got.Text, ".Full()") {
			t.Errorf("lone light fragment: state %q, canvas %v, text %q", got.State, got.Canvas, got.Text)
		}
		if waited := time.Since(start); waited > 20*time.Second {
			t.Errorf("fallback took %v", waited)
		}
	})

	// A light figure whose page lost the library keeps its static picture
	// and says in one line how to redraw it.
	t.Run("light-static-alone", func(t *testing.T) {
		f := sampleFigure(t, "line-events")
		svg, err := f.SVG()
		if err != nil {
			t.Fatal(err)
		}
		rep := b.load(t, "/light-static-alone", htmlDoc("", "", f.Light().WithStatic(svg)), nil)
		rep.clean(t)
		var img struct{ Width, Height float64 }
		if err := chromedp.Run(rep.tab, chromedp.Evaluate(`(function () { var i = document.querySelector("div[data-routelab-figure] img"); return i && i.complete ? {Width: i.naturalWidth, Height: i.naturalHeight} : {Width: 0, Height: 0}; })()`, &img)); err != nil {
			t.Fatal(err)
		}
		got := rep.Figures[0]
		if got.State != "static" || got.Canvas || img.Width == 0 || img.Height == 0 {
			t.Errorf("lone light fragment with its static image: state %q, canvas %v, image %vx%v (want the image kept)", got.State, got.Canvas, img.Width, img.Height)
		}
		if !strings.Contains(got.Text, "Static picture") || !strings.Contains(got.Text, ".Full()") {
			t.Errorf("note under the static image: %q, want one line that says how to redraw it", got.Text)
		}
	})

	t.Run("front-end-insertion", func(t *testing.T) {
		lab, bar, scatter := sampleFigure(t, "line-events"), sampleFigure(t, "bar"), sampleFigure(t, "scatter")
		page := htmlDoc("", "", `<div id="lab"></div><div id="classic"></div><script>`+
			insertionDriver(lab.Fragment(), bar.Fragment(), scatter.Fragment())+`</script>`)
		rep := b.load(t, "/insertion", page, colorsOf(lab, bar, scatter))
		checkAll(t, rep, []*Figure{lab, bar, bar, scatter})
	})

	t.Run("dark-page", func(t *testing.T) {
		f := sampleFigure(t, "scatter")
		rep := b.load(t, "/dark-jupyterlab", htmlDoc("", `data-jp-theme-light="false" style="background:#111;color:#eee"`, f.Fragment()), seriesColors(f))
		checkAll(t, rep, []*Figure{f})
		if rep.Figures[0].Theme != "dark" {
			t.Errorf("JupyterLab dark theme drawn as %q", rep.Figures[0].Theme)
		}
		// Switching the front end to light redraws the figure light.
		var theme string
		err := chromedp.Run(rep.tab,
			chromedp.Evaluate(`document.body.setAttribute("data-jp-theme-light", "true")`, nil),
			chromedp.Poll(`(function () { var e = document.querySelector("div[data-routelab-figure]"); return e.getAttribute("data-routelab-theme") === "light" && e.getAttribute("data-routelab-state") === "ready" && "light"; })()`,
				&theme, chromedp.WithPollingTimeout(10*time.Second)))
		if err != nil || theme != "light" {
			t.Errorf("figure did not follow the theme switch: %v", err)
		}
		rep = b.load(t, "/dark-background", htmlDoc("", `style="background:#16161a;color:#ddd"`, f.Fragment()), seriesColors(f))
		checkAll(t, rep, []*Figure{f})
		if rep.Figures[0].Theme != "dark" {
			t.Errorf("figure on a dark background drawn as %q", rep.Figures[0].Theme)
		}
	})
}

// insertionDriver inserts fragments the way front ends do: JupyterLab sets
// innerHTML on a detached output node and re-creates each script in place;
// classic Notebook (jQuery append) inserts the nodes and runs each script
// from a new element in <head>, so the script cannot find its container by
// position. The classic part shows the same figure twice.
func insertionDriver(lab, classic, other string) string {
	return `(function () {
  var host = document.createElement("div");
  host.innerHTML = ` + jsString(lab) + `;
  Array.prototype.forEach.call(host.querySelectorAll("script"), function (s) {
    var c = document.createElement("script");
    c.text = s.text;
    s.parentNode.replaceChild(c, s);
  });
  document.getElementById("lab").appendChild(host);
  var out = document.getElementById("classic");
  [` + jsString(classic) + `, ` + jsString(classic) + `, ` + jsString(other) + `].forEach(function (h) {
    var tmp = document.createElement("div");
    tmp.innerHTML = h;
    var scripts = Array.prototype.slice.call(tmp.querySelectorAll("script"));
    scripts.forEach(function (s) { s.parentNode.removeChild(s); });
    while (tmp.firstChild) out.appendChild(tmp.firstChild);
    scripts.forEach(function (s) {
      var c = document.createElement("script");
      c.text = s.text;
      document.head.appendChild(c).parentNode.removeChild(c);
    });
  });
})();`
}
