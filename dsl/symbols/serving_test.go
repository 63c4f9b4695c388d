package symbols_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/lab"
)

// servingCost reads every router signal of the serving model: queue and
// batch, KV utilisation, tokens in flight, the approximate prefix match for
// the request, the signals' age and whether the replica answered a probe.
const servingCost = `func(r lab.Replica) float64 {
	c := float64(r.Waiting) + float64(r.InFlight) + 2*r.KVUtil + float64(r.TokensInFlight)/4000 - float64(r.PrefixHitTokens)/500 + r.SignalAgeMs/1000
	if r.Probed {
		c -= 0.25
	}
	return c
}`

// A policy written in a cell sees the serving model's signals in the same
// View as a compiled one, and routes on them exactly as the compiled one
// does: the comparison's bytes are equal. The compiled twin also checks
// that every signal was live (not zero throughout) in the run.
func TestScriptedPolicyReadsServingSignals(t *testing.T) {
	s := newSession(t)
	exec(t, s, `import "github.com/routelab/routelab/engine"`)
	exec(t, s, `
scn0 := lab.Named("chat").Seeds(2)
e, _, _ := scn0.Engine()
cfg := *e.Serving
cfg.Signals = engine.SignalConfig{RefreshMs: 50, Probes: 2, ProbeDelayMs: 1}
scn := scn0.Serving(cfg)
affinity := func(v *lab.View) int {
	best := v.Eligible[0]
	for _, r := range v.Eligible {
		if v.Request.PrefixGroup != 0 && r.PrefixHitTokens > best.PrefixHitTokens && r.Outstanding < best.Outstanding+4 {
			best = r
		}
	}
	return best.ID
}
res := lab.Compare(scn, lab.Policy("signals", `+servingCost+`), lab.Picker("affinity", affinity))`)
	exec(t, s, `
import "bytes"
var buf bytes.Buffer
res.WriteJSON(&buf)`)
	b, _ := exec(t, s, `buf.String()`)
	interpreted := strings.Trim(b.Text(), "\"")

	var seen struct{ kv, tokens, prefix, age, probed, group int }
	cost := func(r lab.Replica) float64 {
		if r.KVUtil > 0 {
			seen.kv++
		}
		if r.TokensInFlight > 0 {
			seen.tokens++
		}
		if r.PrefixHitTokens > 0 {
			seen.prefix++
		}
		if r.SignalAgeMs > 0 {
			seen.age++
		}
		if r.Probed {
			seen.probed++
		}
		c := float64(r.Waiting) + float64(r.InFlight) + 2*r.KVUtil + float64(r.TokensInFlight)/4000 - float64(r.PrefixHitTokens)/500 + r.SignalAgeMs/1000
		if r.Probed {
			c -= 0.25
		}
		return c
	}
	affinity := func(v *lab.View) int {
		if v.Request.PrefixGroup != 0 {
			seen.group++
		}
		best := v.Eligible[0]
		for _, r := range v.Eligible {
			if v.Request.PrefixGroup != 0 && r.PrefixHitTokens > best.PrefixHitTokens && r.Outstanding < best.Outstanding+4 {
				best = r
			}
		}
		return best.ID
	}
	scn0 := lab.Named("chat").Seeds(2)
	e, _, err := scn0.Engine()
	if err != nil {
		t.Fatal(err)
	}
	cfg := *e.Serving
	cfg.Signals = engine.SignalConfig{RefreshMs: 50, Probes: 2, ProbeDelayMs: 1}
	res := lab.Compare(scn0.Serving(cfg), lab.Policy("signals", cost), lab.Picker("affinity", affinity))
	var buf bytes.Buffer
	if err := res.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	want := strings.ReplaceAll(strings.ReplaceAll(buf.String(), `"`, `\"`), "\n", `\n`)
	if interpreted != want {
		t.Fatalf("the scripted policies routed otherwise than their compiled twins")
	}
	t.Logf("replicas seen with KV in use %d, tokens in flight %d, a prefix match %d, an aged signal %d, a probe answer %d; requests with a prefix group %d",
		seen.kv, seen.tokens, seen.prefix, seen.age, seen.probed, seen.group)
	if seen.kv == 0 || seen.tokens == 0 || seen.prefix == 0 || seen.age == 0 || seen.probed == 0 || seen.group == 0 {
		t.Fatalf("a signal was zero throughout: %+v", seen)
	}
	if !strings.Contains(buf.String(), `"ttft_p99_ms"`) {
		t.Fatal("the comparison has no serving metrics")
	}
}
