package experiment

import (
	"context"
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
	// The serving table's columns that the specification's has too read
	// the same (a serving comparison's table leaves out the end-to-end SLO).
	shared := 0
	for _, col := range SummaryColumns(true) {
		for _, spec := range SummaryColumns(false) {
			if col.Key != spec.Key || col.Range != spec.Range {
				continue
			}
			shared++
			for i := range a.Policies {
				if x, y := spec.Cell(a.Policies[i].Summary), col.Cell(b.Policies[i].Summary); x != y {
					t.Errorf("%s, %s: %s, serving %s", a.Policies[i].Name, col.Head, x, y)
				}
			}
		}
	}
	if shared < 5 {
		t.Errorf("only %d columns shared by the two tables", shared)
	}
}
