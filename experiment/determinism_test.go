package experiment

import (
	"bytes"
	"context"
	"runtime"
	"testing"

	"github.com/routelab/routelab/engine"
)

func straggler(t testing.TB) Experiment {
	return Experiment{Scenario: mustScenario(t, "straggler", 175, engine.HighHeterogeneity), Policies: allPolicies()}
}

func TestSameSeedSameBytes(t *testing.T) {
	a, b := compareJSON(t, straggler(t)), compareJSON(t, straggler(t))
	if !bytes.Equal(a, b) {
		t.Fatal("two identical comparisons gave different JSON")
	}
}

// Parallelism never changes a figure: GOMAXPROCS 1 and 2, and any number of
// workers, give the same bytes.
func TestResultsIndependentOfParallelism(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	runtime.GOMAXPROCS(1)
	one := compareJSON(t, straggler(t))
	runtime.GOMAXPROCS(2)
	two := compareJSON(t, straggler(t))
	e := straggler(t)
	e.Workers = 7
	seven := compareJSON(t, e)
	if !bytes.Equal(one, two) || !bytes.Equal(one, seven) {
		t.Fatal("results depend on GOMAXPROCS or the number of workers")
	}
}

func TestWorkloadFingerprintsEqualAcrossPolicies(t *testing.T) {
	c, err := Compare(context.Background(), straggler(t))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[uint64]bool{}
	for _, p := range c.Policies {
		for i, r := range p.Runs {
			if r.Fingerprint != c.Fingerprints[i] {
				t.Errorf("%s seed %d: fingerprint %x, want %x", p.Name, r.Seed, r.Fingerprint, c.Fingerprints[i])
			}
		}
	}
	for _, f := range c.Fingerprints {
		seen[f] = true
	}
	if len(seen) != len(c.Seeds) {
		t.Errorf("%d distinct fingerprints for %d seeds", len(seen), len(c.Seeds))
	}
}
