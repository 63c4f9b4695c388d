package symbols_test

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/dsl"
	"github.com/routelab/routelab/dsl/symbols"
)

// A scripted policy that draws from math/rand (or math/rand/v2) makes the
// same decisions on every run of a seed: during a lab run the top-level
// functions draw from the run's own generator, the policy stream of its
// seed, as the built-in randomised policies do.
const randomPolicies = `import (
	"math/rand"
	randv2 "math/rand/v2"
)

coin := lab.Policy("coin", func(r lab.Replica) float64 { return rand.Float64() * float64(r.Outstanding+1) })
dice := lab.Picker("dice", func(v *lab.View) int { return v.Eligible[randv2.IntN(len(v.Eligible))].ID })
mixed := lab.Stateful("mixed", func() lab.Hooks {
	picks := 0
	return lab.Hooks{Pick: func(v *lab.View) int {
		picks++
		if rand.Intn(4) == 0 {
			return v.Eligible[rand.Perm(len(v.Eligible))[0]].ID
		}
		return v.Eligible[picks%len(v.Eligible)].ID
	}}
})
scn := lab.Straggler().Rate(150).Seeds(4)`

func compareJSON(t *testing.T, s *dsl.Session) string {
	t.Helper()
	b, _ := exec(t, s, "lab.Compare(scn, coin, dice, mixed, lab.Random())")
	return b.Text()
}

func TestRandomScriptedPoliciesAreReproducible(t *testing.T) {
	s := newSession(t)
	exec(t, s, randomPolicies)
	first := compareJSON(t, s)
	if second := compareJSON(t, s); second != first {
		t.Fatalf("two identical comparisons differ:\n%s\n---\n%s", first, second)
	}
	// Another session, another degree of parallelism: the same bytes.
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	other, err := symbols.NewSession(dsl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	exec(t, other, randomPolicies)
	if third := compareJSON(t, other); third != first {
		t.Fatalf("a fresh session with GOMAXPROCS=1 differs:\n%s\n---\n%s", first, third)
	}
	// The workload is the policy-independent common random numbers.
	b, _ := exec(t, s, `res := lab.Compare(scn, coin, lab.RoundRobin())
res.Fingerprints[0] == lab.Compare(scn, lab.LeastQueue()).Fingerprints[0]`)
	if b.Text() != "true" {
		t.Errorf("a random scripted policy changed the workload fingerprint")
	}
}

// Outside a lab run math/rand behaves as in Go: consecutive draws differ.
func TestRandomOutsideRunsIsGo(t *testing.T) {
	s := newSession(t)
	b, _ := exec(t, s, "import \"math/rand\"\nxs := []float64{rand.Float64(), rand.Float64(), rand.Float64()}\nxs[0] != xs[1] || xs[1] != xs[2]")
	if b.Text() != "true" {
		t.Errorf("rand.Float64 outside a run returned the same value three times")
	}
}

// A panic in a scripted policy names the cell and line of the panic, and
// the message is the same on every run.
func TestPolicyPanicIsLocatedAndStable(t *testing.T) {
	s := newSession(t)
	exec(t, s, "func score(r lab.Replica) float64 {\n\tif r.Outstanding > 3 {\n\t\tpanic(\"too busy\")\n\t}\n\treturn float64(r.Outstanding)\n}")
	exec(t, s, "scn := lab.Straggler().Rate(250)\nbusy := lab.Policy(\"busy\", func(r lab.Replica) float64 { return score(r) })")
	var msgs []string
	for range 3 {
		_, err := s.Execute(context.Background(), "lab.Compare(scn, busy)", &sink{})
		var de *display.Error
		if !errors.As(err, &de) {
			t.Fatalf("err = %v", err)
		}
		msgs = append(msgs, de.Value)
	}
	if msgs[0] != msgs[1] || msgs[1] != msgs[2] {
		t.Fatalf("the messages differ between identical runs:\n%s", strings.Join(msgs, "\n"))
	}
	for _, want := range []string{"too busy", "in score, cell 1, line 3:3", "a function literal, cell 2, line 2:"} {
		if !strings.Contains(msgs[0], want) {
			t.Errorf("message %q does not say %q", msgs[0], want)
		}
	}
}

// A policy function that changes a variable declared outside it shares that
// state between the runs of a comparison, so the same seed can give another
// result; the cell that makes it is told so, and a stateful policy, whose
// state is made afresh for every run, is not.
func TestSharedStateInPolicyIsNoted(t *testing.T) {
	s := newSession(t)
	_, out := exec(t, s, `scn := lab.Straggler().Rate(150).Seeds(4)
n := 0
counts := map[int]int{}
cl := lab.Policy("cl", func(r lab.Replica) float64 { n++; counts[r.ID]++; return float64((n + r.ID) % 3) })`)
	want := "note: the function given to lab.Policy (line 4:24) changes counts, n, declared outside it: every call shares them"
	if !strings.Contains(out, want) || !strings.Contains(out, "lab.Stateful") {
		t.Errorf("the cell's output is %q, want a note %q… naming lab.Stateful", out, want)
	}
	// What the note warns of: the second comparison starts from the state
	// the first left.
	b, _ := exec(t, s, "lab.Compare(scn, cl).String() == lab.Compare(scn, cl).String()")
	if b.Text() != "false" {
		t.Errorf("two comparisons of a policy with shared state gave the same result; the note's premise does not hold")
	}
	for _, cell := range []string{
		`lab.Picker("first", func(v *lab.View) int { id := v.Eligible[0].ID; id++; return id - 1 })`,
		`lab.Stateful("rr", func() lab.Hooks { k := 0; return lab.Hooks{Pick: func(v *lab.View) int { k++; return v.Eligible[k%len(v.Eligible)].ID }} })`,
	} {
		if _, out := exec(t, s, cell); strings.Contains(out, "note:") {
			t.Errorf("%s\nnoted %q; it keeps no shared state", cell, out)
		}
	}
}

// A policy reading the wall clock during its runs, in a func literal or a
// stateful policy's method alike, ends the cell with a note; the clock
// read outside runs, or a policy that does not read it, gets none.
func TestWallClockInPolicyIsNoted(t *testing.T) {
	s := newSession(t)
	const note = "note: a scripted policy read the wall clock"
	exec(t, s, `import "time"`)
	exec(t, s, `scn := lab.Straggler().Rate(150).Seeds(2)
type timed struct{ last time.Time }
func (p *timed) pick(v *lab.View) int {
	if time.Since(p.last) > time.Millisecond { p.last = time.Now() }
	return v.Eligible[0].ID
}`)
	for _, c := range []struct {
		cell string
		note bool
	}{
		{`t0 := time.Now(); time.Sleep(time.Millisecond); _ = time.Since(t0) + time.Until(t0)`, false},
		{`lab.Compare(scn, lab.Picker("by-clock", func(v *lab.View) int { return v.Eligible[int(time.Now().UnixNano())%len(v.Eligible)].ID }))`, true},
		{`lab.Compare(scn, lab.Picker("first", func(v *lab.View) int { return v.Eligible[0].ID }))`, false},
		{`lab.Compare(scn, lab.Stateful("timed", func() lab.Hooks { p := &timed{}; return lab.Hooks{Pick: p.pick} }))`, true},
		{`lab.Compare(scn, lab.LeastQueue())`, false},
	} {
		_, out := exec(t, s, c.cell)
		if got := strings.Contains(out, note); got != c.note {
			t.Errorf("%s\noutput %q; want the note: %v", c.cell, out, c.note)
		}
		if c.note && strings.Count(out, note) != 1 {
			t.Errorf("%s\nthe note appears %d times, want once", c.cell, strings.Count(out, note))
		}
	}
}
