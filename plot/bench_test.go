package plot

import (
	"context"
	"testing"
)

// BenchmarkFragmentFull reports the size of a full notebook fragment
// (target: under about 500 KB) and the time to build one.
func BenchmarkFragmentFull(b *testing.B) {
	f := sampleFigure(b, "line-events")
	var n int
	for b.Loop() {
		n = len(f.Fragment())
	}
	b.ReportMetric(float64(n), "bytes/fragment")
}

// BenchmarkFragmentLight reports the size of a light fragment (target: at
// most 30 KB for a typical figure).
func BenchmarkFragmentLight(b *testing.B) {
	f := sampleFigure(b, "line-events")
	var n int
	for b.Loop() {
		n = len(f.LightFragment())
	}
	b.ReportMetric(float64(n), "bytes/fragment")
}

// BenchmarkNew measures reading a chart into a Figure (option fixes and
// encoding).
func BenchmarkNew(b *testing.B) {
	for b.Loop() {
		if _, err := New(sampleLineEvents(), Spec{ID: "bench"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSVG measures an SVG export once the renderer's runtime holds
// the library (the first call loads it and is not timed).
func BenchmarkSVG(b *testing.B) {
	r := NewSVGRenderer(1)
	f := sampleFigure(b, "line-events")
	if _, err := r.Render(context.Background(), f); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := r.Render(context.Background(), f); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSVGFirst measures an export with a fresh renderer: compiling and
// loading the library included.
func BenchmarkSVGFirst(b *testing.B) {
	f := sampleFigure(b, "bar")
	for b.Loop() {
		if _, err := NewSVGRenderer(1).Render(context.Background(), f); err != nil {
			b.Fatal(err)
		}
	}
}
