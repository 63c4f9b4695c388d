package symbols_test

import (
	"regexp"
	"strings"
	"testing"
)

// A Compare that takes more than a second shows one progress line that
// updates in place and ends as its totals, before the comparison itself;
// headless, it shows none.
func TestLongCompareShowsProgress(t *testing.T) {
	// A millisecond's sleep in every decision (for replica 1) makes the
	// comparison last more than a second on any machine (about 2,600 calls,
	// which the session serialises), whatever the interpreter's speed.
	const slow = `import "time"

slow := lab.Policy("slow", func(r lab.Replica) float64 {
	if r.ID == 1 {
		time.Sleep(time.Millisecond)
	}
	return float64(r.Outstanding)
})
res := lab.Compare(lab.Straggler().Seeds(2).Measure(10), slow)
len(res.Runs("slow"))`
	s := newSession(t)
	k := &idSink{}
	b := run(t, s, k, slow)
	if b.Text() != "2" {
		t.Fatalf("the comparison has %q runs, want 2", b.Text())
	}
	var ids []string
	var last string
	for _, d := range k.displays() {
		if strings.HasPrefix(d.id, "routelab-progress-") {
			ids = append(ids, d.id)
			last = d.b.Text()
		}
	}
	if len(ids) < 2 || ids[0] != ids[len(ids)-1] {
		t.Fatalf("progress displays %v: want a line and its updates under one id (did the cell take under a second?)", ids)
	}
	if !regexp.MustCompile(`^lab\.Compare: 2 runs in [0-9.]+m?s \([0-9.]+ runs/s\)$`).MatchString(last) {
		t.Errorf("the line ends as %q, want the totals", last)
	}
	headless := &idSink{headless: true}
	run(t, s, headless, "lab.Compare(lab.Straggler().Seeds(2).Measure(10), slow)")
	for _, d := range headless.displays() {
		if strings.HasPrefix(d.id, "routelab-progress-") {
			t.Fatalf("a headless cell shows progress: %q", d.b.Text())
		}
	}
}
