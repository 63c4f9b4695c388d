package plot

import (
	"regexp"
	"strings"
	"testing"

	"github.com/routelab/routelab/display"
)

var (
	_ display.HTMLer = (*Figure)(nil)
	_ display.SVGer  = (*Figure)(nil)
	_ display.PNGer  = (*Figure)(nil)
)

var scriptBody = regexp.MustCompile(`(?s)<script type="text/javascript">\n(.*?)\n</script>`)

func TestFragmentShape(t *testing.T) {
	f := sampleFigure(t, "line-events")
	lib := libraryGzipBase64()
	for _, c := range []struct {
		name    string
		html    string
		withLib bool
	}{{"full", f.Fragment(), true}, {"light", f.LightFragment(), false}} {
		t.Run(c.name, func(t *testing.T) {
			h := c.html
			if strings.Contains(h, lib) != c.withLib {
				t.Errorf("library inside: %v, want %v", !c.withLib, c.withLib)
			}
			if n := strings.Count(h, "<div "); n != 1 || !strings.HasPrefix(h, `<div class="routelab-figure" data-routelab-figure="sample-line-events" data-routelab-key="`) {
				t.Errorf("want exactly one container div first, got %d:\n%.200s", n, h)
			}
			if strings.Count(h, "<script") != 1 || strings.Count(h, "</script>") != 1 || strings.Contains(h, " src=") {
				t.Error("want one inline script and no external script")
			}
			m := scriptBody.FindStringSubmatch(h)
			if m == nil {
				t.Fatal("no script body")
			}
			body := m[1]
			assertScriptSafe(t, body)
			// Nothing global: the script is one call of a function expression.
			if !strings.HasPrefix(body, "(function (spec) {") || !strings.HasSuffix(body, "});") {
				t.Errorf("script is not a single function call:\n%.100s ... %.100s", body, body[len(body)-100:])
			}
			if regexp.MustCompile(`\b(let|const|class)\s`).MatchString(body) {
				t.Error("script declares let/const/class, which fail when a figure is shown twice")
			}
			for _, forbidden := range []string{"http://", "https://", "//cdn"} {
				if strings.Contains(strings.ToLower(runtimeJS), forbidden) {
					t.Errorf("runtime mentions %q: nothing may load from the network", forbidden)
				}
			}
		})
	}
	if first, again := f.Fragment(), f.Fragment(); first != again {
		t.Error("Fragment is not deterministic")
	}
}

func TestFragmentSizes(t *testing.T) {
	for _, s := range samples {
		f := sampleFigure(t, s.name)
		if n := len(f.Fragment()); n > 500_000 {
			t.Errorf("%s: full fragment %d bytes > 500 KB", s.name, n)
		}
		if n := len(f.LightFragment()); n > 30_000 {
			t.Errorf("%s: light fragment %d bytes > 30 KB", s.name, n)
		}
	}
}

func TestHTMLAndLight(t *testing.T) {
	f := sampleFigure(t, "bar")
	if f.HTML() != f.Fragment() {
		t.Error("HTML() is not the full fragment")
	}
	l := f.Light()
	if l.HTML() != f.LightFragment() || f.HTML() != f.Fragment() {
		t.Error("Light() did not give a light copy, or changed the original")
	}
	b := display.Of(l)
	if b[display.TextHTML] != f.LightFragment() || !strings.Contains(b.Text(), "Figure sample-bar") {
		t.Errorf("display bundle %v", b.MIMEs())
	}
}

func TestFragmentEscapesInjection(t *testing.T) {
	f := sampleFigure(t, "injection")
	for _, h := range []string{f.Fragment(), f.LightFragment()} {
		if strings.Contains(h, "<b>") || strings.Count(h, "</script>") != 1 {
			t.Error("injection text escaped the script element")
		}
		if !strings.Contains(h, `aria-label="Title &lt;/script&gt;&lt;b&gt;x"`) {
			t.Errorf("aria-label not escaped: %.300s", h)
		}
	}
}

func TestPageShape(t *testing.T) {
	p := NewPage(`Results </title><script>alert(1)</script>`)
	var figs []*Figure
	for _, s := range samples {
		figs = append(figs, sampleFigure(t, s.name))
	}
	p.Add(figs...)
	page, err := p.Render()
	if err != nil {
		t.Fatal(err)
	}
	h := string(page)
	if n := strings.Count(h, "Licensed to the Apache Software Foundation"); n != 1 {
		t.Errorf("library appears %d times, want once", n)
	}
	if strings.Contains(h, libraryGzipBase64()[:200]) {
		t.Error("page carries the compressed library too")
	}
	if n := strings.Count(h, "</script>"); n != 1+len(figs) {
		t.Errorf("%d </script>, want %d (library + one per figure)", n, 1+len(figs))
	}
	if strings.Contains(h, "alert(1)</script>") || !strings.Contains(h, "<title>Results &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>") {
		t.Error("page title not escaped")
	}
	if strings.Contains(h, "<script src") || regexp.MustCompile(`(?i)(src|href)="https?:`).MatchString(h) {
		t.Error("page refers to the network")
	}
	if _, err := NewPage("x", nil).Render(); err == nil {
		t.Error("a nil figure rendered")
	}
}

// A nil figure (say, the result of a failed New shown in a cell) must not
// panic when displayed or exported.
func TestNilFigure(t *testing.T) {
	var f *Figure
	b := display.Of(f)
	if b.Text() != "nil" {
		t.Errorf("bundle %v", b)
	}
	if _, err := f.SVG(); err == nil {
		t.Error("SVG of nil figure: no error")
	}
	if _, err := f.PNG(); err == nil {
		t.Error("PNG of nil figure: no error")
	}
}
