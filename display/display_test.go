package display

import (
	"errors"
	"testing"
)

type htmlThing struct{}

func (htmlThing) String() string { return "thing" }
func (htmlThing) HTML() string   { return "<b>thing</b>" }

type svgThing struct{ err error }

func (s svgThing) SVG() (string, error) { return "<svg/>", s.err }

type bundler struct{}

func (bundler) Bundle() Bundle { return Bundle{TextHTML: "<i>x</i>"} }

func TestOf(t *testing.T) {
	if b := Of(htmlThing{}); b.Text() != "thing" || b[TextHTML] != "<b>thing</b>" {
		t.Errorf("HTMLer: %v", b)
	}
	if b := Of(svgThing{}); b[SVG] != "<svg/>" {
		t.Errorf("SVGer: %v", b)
	}
	if b := Of(svgThing{err: errors.New("no renderer")}); b[SVG] != nil || b.Text() == "" {
		t.Errorf("failing SVGer: %v", b)
	}
	if b := Of(bundler{}); b[TextHTML] != "<i>x</i>" || b.Text() == "" {
		t.Errorf("Bundler: %v", b)
	}
	if b := Of(Bundle{SVG: "<svg/>"}); b[SVG] != "<svg/>" || b.Text() != "<image/svg+xml>" {
		t.Errorf("Bundle: %v", b)
	}
	if b := Of("hi"); b.Text() != `"hi"` || len(b) != 1 {
		t.Errorf("string: %v", b)
	}
	var nilThing *htmlPtr
	if b := Of(nilThing); b.Text() != "nil" {
		t.Errorf("nil pointer Stringer: %v", b)
	}
	if got := Of(nil).Text(); got != "nil" {
		t.Errorf("nil: %q", got)
	}
	if got := (Bundle{TextHTML: 1, TextPlain: 2}).MIMEs(); got[0] != TextHTML || got[1] != TextPlain {
		t.Errorf("MIMEs not sorted: %v", got)
	}
	e := &Error{Name: "ValueError", Value: "bad"}
	if e.Error() != "ValueError: bad" {
		t.Errorf("Error() = %q", e.Error())
	}
}

type htmlPtr struct{}

func (*htmlPtr) String() string { return "set" }
