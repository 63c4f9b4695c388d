package dsl

import (
	"testing"
	"time"
)

// formatSpan writes durations as IPython's %time does: three significant
// digits in the largest unit below the value, minutes from a minute on.
func TestFormatSpan(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                        "0 ns",
		950:                      "950 ns",
		1500:                     "1.5 µs",
		123456:                   "123 µs",
		2*time.Millisecond + 5e4: "2.05 ms",
		1500 * time.Millisecond:  "1.5 s",
		59 * time.Second:         "59 s",
		61500 * time.Millisecond: "1min 1.5s",
	} {
		if got := formatSpan(d); got != want {
			t.Errorf("formatSpan(%v) = %q, want %q", d, got, want)
		}
	}
}

// magicPieces finds magic lines outside raw strings and comments and
// keeps every piece at its line and column.
func TestMagicPieces(t *testing.T) {
	if p := magicPieces("x := 1\ny := `\n%who\n`\n/*\n%env\n*/"); p != nil {
		t.Errorf("a cell whose only %% lines are in a raw string and a comment has pieces %+v", p)
	}
	p := magicPieces("a := 1\n  %time b := 2\nc := 3\n%%time\nd := 4\n")
	if len(p) != 4 {
		t.Fatalf("pieces = %+v, want code, %%time, code, %%%%time", p)
	}
	if p[0].magic != "" || p[0].line != 1 || p[1].magic != "time" || p[1].text != "b := 2" || p[1].line != 2 || p[1].at != 3 || p[1].col != 9 {
		t.Errorf("first pieces = %+v %+v", p[0], p[1])
	}
	if p[3].magic != "%time" || p[3].line != 4 || p[3].rest != "d := 4\n" {
		t.Errorf("cell magic piece = %+v", p[3])
	}
	if got, want := p[1].code(), "\n        b := 2"; got != want {
		t.Errorf("the %%time piece runs as %q, want %q (its line and column)", got, want)
	}
}

// A cell with magics is complete when its Go is.
func TestIsCompleteWithMagics(t *testing.T) {
	s := &Session{}
	for code, want := range map[string]string{
		"%who":                             "complete",
		"%time x := f(":                    "incomplete",
		"%%time\nfor i := 0; i < 3; i++ {": "incomplete",
		"%%time\nx := 1":                   "complete",
		"%time x := )":                     "invalid",
	} {
		if got, _ := s.IsComplete(code); got != want {
			t.Errorf("IsComplete(%q) = %s, want %s", code, got, want)
		}
	}
}
