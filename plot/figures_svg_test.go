package plot

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/routelab/routelab/engine"
)

// TestFigureSVG exports every figure kind: the SVG is XML and shows the
// title and every policy's name as text.
func TestFigureSVG(t *testing.T) {
	r := NewSVGRenderer(1)
	for _, k := range figureKinds() {
		t.Run(k.name, func(t *testing.T) {
			f := buildKind(t, k.name).WithSVGRenderer(r)
			svg, err := f.SVG()
			if err != nil {
				t.Fatal(err)
			}
			doc := parseSVG(t, svg)
			if !slices.Contains(doc.texts, f.Title()) {
				t.Errorf("title %q not among the texts", f.Title())
			}
			for _, p := range k.policies {
				if !slices.ContainsFunc(doc.texts, func(s string) bool { return strings.Contains(s, p) }) {
					t.Errorf("policy %q not among the texts %q", p, doc.texts)
				}
			}
		})
	}
}

// injectionFigures are figures of a comparison and a run whose policy (and
// scenario) is named with the injection string.
func injectionFigures(t *testing.T) []*Figure {
	c := injectionComparison(t)
	evil := engine.LeastQueue()
	evil.Name = injection
	builders := []func() (*Figure, error){
		func() (*Figure, error) { return Comparison(c) },
		func() (*Figure, error) { return LatencyCDF(c) },
		func() (*Figure, error) { return Paired(c, injection, "adaptive") },
		func() (*Figure, error) { return Timeline(testRun(t, "burst", evil)) },
	}
	var figs []*Figure
	for _, b := range builders {
		f, err := b()
		if err != nil {
			t.Fatal(err)
		}
		figs = append(figs, f)
	}
	return figs
}

// A policy named "</script><b>x" stays text everywhere: in the option
// script, in SVG exports, in the table and in the report page.
func TestFiguresInjectionIsText(t *testing.T) {
	r := NewSVGRenderer(1)
	for _, f := range injectionFigures(t) {
		assertScriptSafe(t, f.OptionJS())
		assertScriptSafe(t, scriptBody.FindStringSubmatch(f.LightFragment())[1])
		svg, err := f.WithSVGRenderer(r).SVG()
		if err != nil {
			t.Fatal(err)
		}
		doc := parseSVG(t, svg)
		if slices.Contains(doc.elements, "b") || slices.Contains(doc.elements, "script") {
			t.Errorf("%s: markup from a name became elements: %v", f.ID(), doc.elements)
		}
		if !slices.ContainsFunc(doc.texts, func(s string) bool { return strings.Contains(s, injection) }) {
			t.Errorf("%s: the name is not shown as text: %q", f.ID(), doc.texts)
		}
	}
	rep, err := Report(injectionComparison(t))
	if err != nil {
		t.Fatal(err)
	}
	page, err := rep.Render()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(page), injection) || strings.Contains(rep.HTML(), injection) {
		t.Error("the raw name appears in the report's HTML")
	}
	if n := strings.Count(strings.ToLower(string(page)), "</script"); n != 3 {
		t.Errorf("%d script ends in the page, want 3 (library and two figures)", n)
	}
}

// BenchmarkFigureSVG measures an SVG export of a comparison figure once
// the renderer holds the library (target: at most 300 ms).
func BenchmarkFigureSVG(b *testing.B) {
	r := NewSVGRenderer(1)
	f := buildKind(b, "comparison")
	if _, err := r.Render(context.Background(), f); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := r.Render(context.Background(), f); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFigureOption reports each figure kind's option JSON size and the
// time to build the figure from engine results (the runs are not timed).
func BenchmarkFigureOption(b *testing.B) {
	for _, k := range figureKinds() {
		b.Run(k.name, func(b *testing.B) {
			data := k.data(b)
			var n int
			for b.Loop() {
				f, err := k.draw(data)
				if err != nil {
					b.Fatal(err)
				}
				n = len(f.OptionJSON())
			}
			b.ReportMetric(float64(n), "bytes/option")
		})
	}
}
