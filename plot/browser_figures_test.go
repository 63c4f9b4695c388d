package plot

import (
	"strings"
	"testing"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// kindFigure is a built figure and the palette colours it must show.
type kindFigure struct {
	f      *Figure
	colors []string
}

func builtKinds(t *testing.T) []kindFigure {
	var out []kindFigure
	for _, k := range figureKinds() {
		f, err := k.build(t)
		if err != nil {
			t.Fatalf("%s: %v", k.name, err)
		}
		var colors []string
		for _, p := range k.policies {
			colors = append(colors, wantColor(p))
		}
		out = append(out, kindFigure{f, colors})
	}
	return out
}

func kindParts(kinds []kindFigure) (figs []*Figure, colors []string) {
	for _, k := range kinds {
		figs = append(figs, k.f)
		colors = append(colors, k.colors...)
	}
	return figs, colors
}

// checkKinds: a clean page, and every figure ready, painted, in its colours.
func checkKinds(t *testing.T, rep *pageReport, kinds []kindFigure, theme string) {
	t.Helper()
	rep.clean(t)
	if len(rep.Figures) != len(kinds) {
		t.Fatalf("%d figure containers, want %d", len(rep.Figures), len(kinds))
	}
	for i, k := range kinds {
		rep.Figures[i].drawn(t, k.colors)
		if theme != "" && rep.Figures[i].Theme != theme {
			t.Errorf("figure %s drawn %q, want %q", k.f.ID(), rep.Figures[i].Theme, theme)
		}
	}
}

// TestBrowserFigures draws every figure kind, built from engine results, in
// real headless Chromium: in a standalone page, after require.js as in
// classic Notebook, on a dark page, as a report, and with tooltips opened
// on figures of a policy named like markup.
func TestBrowserFigures(t *testing.T) {
	b := startBrowser(t)
	kinds := builtKinds(t)
	figs, colors := kindParts(kinds)

	t.Run("standalone-page", func(t *testing.T) {
		page, err := NewPage("Figures", figs...).Render()
		if err != nil {
			t.Fatal(err)
		}
		checkKinds(t, b.load(t, "/figures-standalone", page, colors), kinds, "light")
	})

	t.Run("requirejs-page", func(t *testing.T) {
		var body strings.Builder
		for i, f := range figs {
			if i == 0 {
				body.WriteString(f.Fragment())
			} else {
				body.WriteString(f.LightFragment())
			}
		}
		rep := b.load(t, "/figures-requirejs", htmlDoc(`<script src="/require.js"></script>`, "", body.String()), colors)
		checkKinds(t, rep, kinds, "light")
		var amd bool
		if err := chromedp.Run(rep.tab, chromedp.Evaluate(`typeof define === "function" && !!define.amd`, &amd)); err != nil || !amd {
			t.Errorf("require.js was not active on the page (%v)", err)
		}
	})

	t.Run("dark-page", func(t *testing.T) {
		var body strings.Builder
		for _, f := range figs {
			body.WriteString(f.Fragment())
		}
		rep := b.load(t, "/figures-dark", htmlDoc("", `style="background:#1e1e1e;color:#ddd"`, body.String()), colors)
		checkKinds(t, rep, kinds, "dark")
	})

	t.Run("report", func(t *testing.T) {
		r, err := Report(injectionComparison(t))
		if err != nil {
			t.Fatal(err)
		}
		page, err := r.Render()
		if err != nil {
			t.Fatal(err)
		}
		palette := []string{DefaultPalette().Color(injection), AccentColor}
		rep := b.load(t, "/report", page, palette)
		rep.clean(t)
		for _, f := range rep.Figures {
			f.drawn(t, palette)
		}
		var cell string
		if err := chromedp.Run(rep.tab, chromedp.Text("table.routelab-table tbody td", &cell, chromedp.ByQuery)); err != nil || cell != injection {
			t.Errorf("first table cell %q (%v), want the policy name as text", cell, err)
		}
	})

	t.Run("injection-tooltips", func(t *testing.T) {
		inj := injectionFigures(t)
		var body strings.Builder
		for _, f := range inj {
			body.WriteString(f.Fragment())
		}
		rep := b.load(t, "/injection-tooltips", htmlDoc("", "", body.String()), nil)
		rep.clean(t)
		var tips []string
		err := chromedp.Run(rep.tab, chromedp.Evaluate(showTipsJS, &tips, func(p *runtime.EvaluateParams) *runtime.EvaluateParams {
			return p.WithAwaitPromise(true)
		}))
		if err != nil {
			t.Fatal(err)
		}
		if len(tips) != len(inj) {
			t.Fatalf("tooltips %q", tips)
		}
		for i, tip := range tips {
			if !strings.Contains(tip, injection) {
				t.Errorf("figure %s: no tooltip showed the policy name as text: %q", inj[i].ID(), tip)
			}
		}
		rep.inspect(t, nil)
		rep.clean(t) // formatter errors, and <b> elements made from the name
	})
}

// showTipsJS opens the tooltip of every named series' first item, figure
// by figure, and returns per figure the text of all tooltips shown.
const showTipsJS = `(async function () {
  var wait = function () { return new Promise(function (r) { setTimeout(r, 60); }); };
  var out = [];
  var els = document.querySelectorAll("div[data-routelab-figure]");
  for (var i = 0; i < els.length; i++) {
    var chart = echarts.getInstanceByDom(els[i]), series = chart.getOption().series, text = "";
    for (var s = 0; s < series.length; s++) {
      var data = series[s].data || [], k = 0;
      while (k < data.length && (data[k] === "-" || data[k] == null)) k++;
      if (!series[s].name || k === data.length) continue;
      chart.dispatchAction({type: "showTip", seriesIndex: s, dataIndex: k});
      await wait();
      for (var c = 0; c < els[i].children.length; c++) {
        var d = els[i].children[c];
        if (d.style.display !== "none" && !d.querySelector("canvas")) text += d.textContent + "\n";
      }
      chart.dispatchAction({type: "hideTip"});
    }
    out.push(text);
  }
  return out;
})()`
