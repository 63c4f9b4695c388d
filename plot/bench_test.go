package plot

import (
	"context"
	"testing"
	"time"
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

// BenchmarkStaticFallback measures what a notebook figure's static
// fallback costs (lab's figures carry it unless Env.NoStatic): the SVG
// export with a renderer that already holds the library, and the image
// inside the HTML. It reports the bytes the fallback adds to the display
// bundle — the image in the HTML plus the image/svg+xml entry — per figure
// kind (targets: at most 300 ms and 150 KB).
func BenchmarkStaticFallback(b *testing.B) {
	r := NewSVGRenderer(1)
	for _, k := range figureKinds() {
		b.Run(k.name, func(b *testing.B) {
			f := buildKind(b, k.name).WithSVGRenderer(r)
			if _, err := f.SVG(); err != nil { // loads the library once
				b.Fatal(err)
			}
			var added int
			cpu := cpuTime()
			for b.Loop() {
				svg, err := f.SVG()
				if err != nil {
					b.Fatal(err)
				}
				added = len(f.WithStatic(svg)) - len(f.Fragment()) + len(svg)
			}
			reportCPU(b, cpu)
			b.ReportMetric(float64(added)/1024, "KB/figure")
		})
	}
}

// BenchmarkPDF measures a PDF export of the comparison figure: the SVG
// export (library loaded) and printing it in a fresh headless Chromium.
func BenchmarkPDF(b *testing.B) {
	if _, err := chromiumPath(); err != nil {
		b.Skip(err)
	}
	f := buildKind(b, "comparison").WithSVGRenderer(NewSVGRenderer(1))
	if _, err := f.SVG(); err != nil {
		b.Fatal(err)
	}
	var n int
	cpu := cpuTime()
	for b.Loop() {
		pdf, err := f.PDF()
		if err != nil {
			b.Fatal(err)
		}
		n = len(pdf)
	}
	reportCPU(b, cpu) // this process only: Chromium's own CPU is not counted
	b.ReportMetric(float64(n)/1024, "KB/pdf")
}

// reportCPU reports the process' CPU time per iteration since start, which
// other work on a shared machine does not inflate as it does wall time.
func reportCPU(b *testing.B, start time.Duration) {
	if used := cpuTime() - start; used > 0 {
		b.ReportMetric(float64(used.Milliseconds())/float64(b.N), "cpu-ms/op")
	}
}
