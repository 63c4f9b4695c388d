package experiment

import (
	"context"
	"strings"
	"testing"

	"github.com/routelab/routelab/engine"
)

// The same holds for whole comparisons: the fingerprints and every
// record's specification fields are the same, so `routelab compare` prints
// the same table.
func TestBatchOfOneComparisonMatches(t *testing.T) {
	seed := mustScenario(t, "straggler", 100, engine.DefaultHeterogeneity)
	serving := seed
	serving.Serving = &engine.ServingConfig{MaxBatch: 1}
	a, err := Compare(context.Background(), Experiment{Scenario: seed, Policies: engine.SpecificationPolicies()})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Compare(context.Background(), Experiment{Scenario: serving, Policies: engine.SpecificationPolicies()})
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.Fingerprints {
		if a.Fingerprints[i] != b.Fingerprints[i] {
			t.Fatalf("seed %d: fingerprint %x, serving %x", a.Seeds[i], a.Fingerprints[i], b.Fingerprints[i])
		}
	}
	ra, rb := a.RunRecords(), b.RunRecords()
	for i := range ra {
		for j, f := range ra[i] {
			if rb[i][j] != f {
				t.Fatalf("run %d field %s: %v, serving %v", i, f.Name, f.Value, rb[i][j].Value)
			}
		}
	}
	// The table is the specification's, with the serving columns after.
	ta, tb := strings.Split(a.String(), "\n"), strings.Split(b.String(), "\n")
	for i := range ta {
		if !strings.HasPrefix(strings.TrimRight(tb[i], " "), strings.TrimRight(ta[i], " ")) {
			t.Fatalf("table line %d:\n%s\nserving:\n%s", i, ta[i], tb[i])
		}
	}
}
