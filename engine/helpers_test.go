package engine

import (
	"bytes"
	"context"
	"flag"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// allPolicies are the built-ins, each freshly constructed.
func allPolicies() []PolicySpec {
	var out []PolicySpec
	for _, n := range PolicyNames() {
		p, _ := PolicyByName(n)
		out = append(out, p)
	}
	return out
}

func mustScenario(t testing.TB, name string, rate float64, h Heterogeneity) Scenario {
	t.Helper()
	s, err := BuiltinScenario(name, rate, h)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustRun(t testing.TB, spec RunSpec) *RunResult {
	t.Helper()
	if spec.Protocol == (Protocol{}) {
		spec.Protocol = DefaultProtocol()
	}
	r, err := Run(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// checkConservation asserts cohort arrivals = completed + shed + unfinished,
// where unfinished was counted directly from the queues at the cutoff.
func checkConservation(t testing.TB, r *RunResult) {
	t.Helper()
	checkCohort(t, &r.RunSummary)
	assigned := 0
	for _, p := range r.PerReplica {
		assigned += p.Assigned
	}
	if r.OnTime > r.Completed || assigned < r.Completed+r.Unfinished {
		t.Fatalf("%s seed %d: on time %d, completed %d, assigned %d, unfinished %d are inconsistent",
			r.Policy, r.Seed, r.OnTime, r.Completed, assigned, r.Unfinished)
	}
}

// checkCohort asserts cohort arrivals = completed + shed + unfinished.
func checkCohort(t testing.TB, r *RunSummary) {
	t.Helper()
	if r.Cohort != r.Completed+r.Shed+r.Unfinished {
		t.Fatalf("%s seed %d on %s: cohort %d != completed %d + shed %d + unfinished %d",
			r.Policy, r.Seed, r.Scenario, r.Cohort, r.Completed, r.Shed, r.Unfinished)
	}
}

func contains(s, sub string) bool { return bytes.Contains([]byte(s), []byte(sub)) }
