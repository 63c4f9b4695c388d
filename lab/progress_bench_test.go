package lab

import (
	"testing"
	"time"
)

// BenchmarkProgressOverhead runs one comparison with a progress line
// (shown from the first run on, redrawn at every chance) and without, in
// turn, and reports the extra time as overhead-% of the run's time (issue
// 22's bound is 1 %).
func BenchmarkProgressOverhead(b *testing.B) {
	scn := Straggler().Seeds(8).Measure(60)
	quiet := &Env{Workers: 1}
	shown := 0
	watched := &Env{Workers: 1, Display: func(any, string, bool) { shown++ }, Headless: func() bool { return false }}
	var with, without time.Duration
	for b.Loop() {
		t := time.Now()
		quiet.Compare(scn, LeastQueue())
		without += time.Since(t)
		t = time.Now()
		p := watched.progress("lab.Compare")
		p.start = p.start.Add(-progressAfter)
		c, err := compareWith(watched, scn, p, LeastQueue())
		if err != nil || c == nil {
			b.Fatal(err)
		}
		with += time.Since(t)
	}
	if shown == 0 {
		b.Fatal("the progress line was never shown")
	}
	b.ReportMetric(100*(with.Seconds()-without.Seconds())/without.Seconds(), "overhead-%")
}
