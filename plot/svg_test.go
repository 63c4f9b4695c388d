package plot

import (
	"context"
	"encoding/xml"
	"errors"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// svgDoc is what the tests read from an SVG: its text and element names.
type svgDoc struct {
	texts    []string
	elements []string
	width    string
}

func parseSVG(t *testing.T, svg string) svgDoc {
	t.Helper()
	var doc svgDoc
	dec := xml.NewDecoder(strings.NewReader(svg))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not XML: %v", err)
		}
		switch x := tok.(type) {
		case xml.StartElement:
			doc.elements = append(doc.elements, x.Name.Local)
			if x.Name.Local == "svg" {
				for _, a := range x.Attr {
					if a.Name.Local == "width" {
						doc.width = a.Value
					}
				}
			}
		case xml.CharData:
			if s := strings.TrimSpace(string(x)); s != "" {
				doc.texts = append(doc.texts, s)
			}
		}
	}
	return doc
}

func TestSVGExport(t *testing.T) {
	r := NewSVGRenderer(1)
	for _, s := range samples {
		t.Run(s.name, func(t *testing.T) {
			f := sampleFigure(t, s.name).WithSVGRenderer(r)
			svg, err := f.SVG()
			if err != nil {
				t.Fatal(err)
			}
			doc := parseSVG(t, svg)
			if doc.elements[0] != "svg" || doc.width != "900" {
				t.Errorf("root %s width %q", doc.elements[0], doc.width)
			}
			if !slices.Contains(doc.texts, f.Title()) {
				t.Errorf("title %q not among the texts %q", f.Title(), doc.texts)
			}
			for _, name := range f.Series() {
				if !slices.Contains(doc.texts, name) {
					t.Errorf("series %q not among the texts", name)
				}
			}
			if slices.Contains(doc.elements, "b") || slices.Contains(doc.elements, "script") {
				t.Errorf("markup from a user string became elements: %v", doc.elements)
			}
			if strings.Contains(svg, `id="zr`) || strings.Contains(svg, "url(#zr") {
				t.Error("zrender ids left in the SVG; they collide between documents")
			}
			again, err := f.SVG()
			if err != nil || again != svg {
				t.Errorf("second export differs (err %v): exports must be deterministic", err)
			}
		})
	}
}

func TestSVGInjectionIsText(t *testing.T) {
	f := sampleFigure(t, "injection")
	svg, err := f.SVG() // no renderer in the spec: the one-off path
	if err != nil {
		t.Fatal(err)
	}
	doc := parseSVG(t, svg)
	if !slices.Contains(doc.texts, injection) || !slices.Contains(doc.texts, "Title "+injection) {
		t.Errorf("injection name not shown as text: %q", doc.texts)
	}
	if slices.Contains(doc.elements, "b") {
		t.Error("injection name became markup")
	}
}

func TestSVGDarkTheme(t *testing.T) {
	f, err := New(sampleBar(), Spec{ID: "dark", Theme: ThemeDark})
	if err != nil {
		t.Fatal(err)
	}
	svg, err := f.SVG()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(svg, `fill="`+darkBackground+`"`) {
		t.Error("dark export lacks the dark background")
	}
	light, _ := sampleFigure(t, "bar").SVG()
	if !strings.Contains(light, `fill="#ffffff"`) {
		t.Error("auto export lacks the white background")
	}
}

// Concurrent callers share two runtimes and all get the same document.
func TestSVGRendererConcurrent(t *testing.T) {
	r := NewSVGRenderer(2)
	f := sampleFigure(t, "scatter")
	want, err := r.Render(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, err := r.Render(context.Background(), f)
			if err == nil && got != want {
				err = errors.New("concurrent export differs")
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

func TestSVGCancelled(t *testing.T) {
	r := NewSVGRenderer(1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Render(ctx, sampleFigure(t, "bar")); !errors.Is(err, context.Canceled) {
		t.Fatalf("export with a cancelled context: err = %v", err)
	}
}

// A render that never ends (a formatter looping forever) is interrupted at
// the deadline, and the renderer replaces the runtime it had to stop.
func TestSVGInterruptedMidRender(t *testing.T) {
	line := charts.NewLine()
	line.SetGlobalOptions(charts.WithYAxisOpts(opts.YAxis{AxisLabel: &opts.AxisLabel{
		Formatter: opts.FuncOpts("function (v) { for (;;) {} }")}}))
	line.SetXAxis([]int{1, 2}).AddSeries("adaptive", []opts.LineData{{Value: 1}, {Value: 2}})
	hang, err := New(line, Spec{ID: "hang"})
	if err != nil {
		t.Fatal(err)
	}
	r := NewSVGRenderer(1)
	if _, err := r.Render(context.Background(), sampleFigure(t, "bar")); err != nil {
		t.Fatal(err) // load the runtime outside the deadline
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := r.Render(ctx, hang); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("endless render: err = %v", err)
	}
	svg, err := r.Render(context.Background(), sampleFigure(t, "bar"))
	if err != nil || !strings.HasPrefix(svg, "<svg") {
		t.Fatalf("renderer unusable after an interrupt: %v", err)
	}
}
