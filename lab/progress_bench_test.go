package lab

import (
	"testing"
	"time"
)

// BenchmarkProgressOverhead runs one comparison with a progress line
// (shown from the first run on, redrawn at every chance) and without, in
// turn — which goes first alternates, so neither arm always meets the
// caches the other warmed — and reports the extra time as overhead-% of
// the run's time (issue 22's bound is 1 %).
func BenchmarkProgressOverhead(b *testing.B) {
	scn := Straggler().Seeds(8).Measure(60)
	quiet := &Env{Workers: 1}
	shown := 0
	watched := &Env{Workers: 1, Display: func(any, string, bool) { shown++ }, Headless: func() bool { return false }}
	var with, without time.Duration
	plain := func() {
		t := time.Now()
		quiet.Compare(scn, LeastQueue())
		without += time.Since(t)
	}
	withProgress := func() {
		t := time.Now()
		p := watched.progress("lab.Compare")
		p.start = p.start.Add(-progressAfter)
		c, err := compareWith(watched, scn, p, LeastQueue())
		if err != nil || c == nil {
			b.Fatal(err)
		}
		with += time.Since(t)
	}
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			plain()
			withProgress()
		} else {
			withProgress()
			plain()
		}
	}
	if shown == 0 {
		b.Fatal("the progress line was never shown")
	}
	b.ReportMetric(100*(with.Seconds()-without.Seconds())/without.Seconds(), "overhead-%")
}
