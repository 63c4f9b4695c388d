package experiment

import (
	"context"
	"fmt"
	"math"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/routelab/routelab/engine"
)

func TestExperimentValidation(t *testing.T) {
	scn := engine.NewScenario("v")
	cases := []struct {
		name string
		e    Experiment
		want string
	}{
		{"no policies", Experiment{Scenario: scn}, "policies: \"none\" is not allowed (want at least one policy)"},
		{"zero seed", Experiment{Scenario: scn, Policies: []engine.PolicySpec{engine.LeastQueue()}, Seeds: []uint64{1, 0}}, "seeds[1]: 0 is not allowed"},
		{"duplicate seed", Experiment{Scenario: scn, Policies: []engine.PolicySpec{engine.LeastQueue()}, Seeds: []uint64{3, 3}}, "distinct seeds"},
		{"duplicate policy", Experiment{Scenario: scn, Policies: []engine.PolicySpec{engine.LeastQueue(), engine.LeastQueue()}}, "distinct policy names"},
		{"warm-up past horizon", Experiment{Scenario: scn, Policies: []engine.PolicySpec{engine.LeastQueue()}, Protocol: engine.Protocol{Warmup: 5000, Measure: 0, SLO: 50}}, "measure_ms: 0"},
		{"off grid", Experiment{Scenario: scn, Policies: []engine.PolicySpec{engine.LeastQueue()}, Protocol: engine.Protocol{Warmup: 0.3, Measure: 100, SLO: 50}}, "warmup_ms: 0.3"},
		{"bad SLO", Experiment{Scenario: scn, Policies: []engine.PolicySpec{engine.LeastQueue()}, Protocol: engine.Protocol{Warmup: 0, Measure: 100, SLO: math.NaN()}}, "slo_ms: NaN"},
		{"bad adaptive", Experiment{Scenario: scn, Policies: []engine.PolicySpec{engine.Adaptive(engine.AdaptiveParams{C: -1, Alpha: 0.1, Ceiling: 100})}}, "adaptive.c: -1"},
		{"bad alpha", Experiment{Scenario: scn, Policies: []engine.PolicySpec{engine.LatencyAware(2)}}, "alpha: 2"},
	}
	for _, c := range cases {
		_, err := Compare(context.Background(), c.e)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", c.name, err, c.want)
		}
	}
	if _, err := engine.NewSimulator(scn, engine.LeastQueue(), engine.SimOptions{Seed: 0}); err == nil || !strings.Contains(err.Error(), "seed: 0") {
		t.Errorf("seed 0: %v", err)
	}
	s, _ := engine.NewSimulator(scn, engine.LeastQueue(), engine.SimOptions{Seed: 1})
	for _, dt := range []float64{-1, math.NaN(), math.Inf(1)} {
		if err := s.Advance(dt); err == nil || !strings.Contains(err.Error(), "dt:") {
			t.Errorf("Advance(%v): %v", dt, err)
		}
	}
	if err := s.Apply(engine.Event{Kind: engine.EventFail, Replica: 9}); err == nil || !strings.Contains(err.Error(), "replica: 9") {
		t.Errorf("Apply on a missing replica: %v", err)
	}
}

// studyFile is a valid study file with some fields replaced (by their raw
// JSON) or, with an empty value, left out.
func studyFile(change map[string]string) string {
	fields := [][2]string{
		{"rates_rps", "[100]"}, {"heterogeneity", `["default"]`}, {"scenarios", `["steady", "failure"]`},
		{"weights", "[0, 0.35]"}, {"development_seeds", "[1, 2, 3, 4]"}, {"validation_seeds", "[5, 6]"},
		{"policies", `["least-queue", "adaptive"]`}, {"protocol", `{"warmup_ms": 3000, "measure_ms": 12000, "slo_ms": 50}`},
	}
	var parts []string
	for _, f := range fields {
		v, ok := change[f[0]]
		if !ok {
			v = f[1]
		}
		if v != "" {
			parts = append(parts, fmt.Sprintf("%q: %s", f[0], v))
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// badStudies are study files that must be refused, with what the error
// must say. FuzzParseStudy starts from each of them.
var badStudies = []struct{ in, want string }{
	{"{\n  \"rates_rps\": [100,],\n}", "s.json:2:"},
	{"{\n  \"colour\": 1\n}", `s.json:2:3: unknown field "colour"`},
	{"{\n  \"weights\": \"x\"\n}", `s.json:2:`},
	{studyFile(map[string]string{"validation_seeds": "[0]"}), "validation_seeds: seeds[0]: 0"},
	{studyFile(map[string]string{"rates_rps": "[-1]"}), "rate_rps: -1"},
	{studyFile(map[string]string{"heterogeneity": `["extreme"]`}), `heterogeneity: "extreme"`},
	{studyFile(map[string]string{"policies": `["oracle"]`}), `policy: "oracle"`},
	{`{} {}`, "unexpected data"},
	// Wrong kinds name the JSON wanted, not the Go type behind it.
	{`[1]`, "s.json:1:1: the file: got JSON array, want an object"},
	{" \n ", "s.json: the file is empty (want a JSON object)"},
	{"{\"name\": \"x\",\n", "s.json:1:14: the JSON ends before its value does (truncated?)"},
	{`{"rates_rps": "100"}`, `field "rates_rps": got JSON string, want an array`},
	{`{"validation_seeds": [-2]}`, `field "validation_seeds": got JSON number -2, want an integer >= 0`},
	// The protocol comes first: without one, the error is about the protocol,
	// not about an event past a horizon of zero.
	{studyFile(map[string]string{"protocol": ""}),
		`s.json: protocol: "none" is not allowed (want an object with warmup_ms, measure_ms and slo_ms, such as the specification's {"warmup_ms": 3000, "measure_ms": 12000, "slo_ms": 50})`},
	{studyFile(map[string]string{"protocol": `{"warmup_ms": 3000, "slo_ms": 50}`}), "s.json: protocol: measure_ms: 0 is not allowed"},
	// Validation must not re-run the development seeds.
	{studyFile(map[string]string{"validation_seeds": "[3, 9, 4]"}),
		"s.json: validation_seeds: seeds 3, 4 (also in development_seeds) is not allowed (want seeds disjoint from development_seeds"},
	{studyFile(map[string]string{"development_seeds": "[7]", "validation_seeds": "[7]"}), "validation_seeds: seed 7 (also in development_seeds)"},
	// Names and values appear once, as in compare.
	{studyFile(map[string]string{"policies": `["adaptive", "least-queue", "adaptive"]`}),
		`s.json: policies[2]: "adaptive" is not allowed (want distinct policy names: policies[0] is already "adaptive")`},
	{studyFile(map[string]string{"weights": "[0.1, 0.35, 0.1]"}), "weights[2]: 0.1 is not allowed (want distinct weights: weights[0] is already 0.1)"},
	{studyFile(map[string]string{"scenarios": `["burst", "burst"]`}), `scenarios[1]: "burst" is not allowed (want distinct scenarios`},
	{studyFile(map[string]string{"rates_rps": "[100, 100]"}), "rates_rps[1]: 100 is not allowed (want distinct rates"},
	{studyFile(map[string]string{"heterogeneity": `["high", "high"]`}), `heterogeneity[1]: "high" is not allowed`},
}

func TestStudyParsing(t *testing.T) {
	if _, err := ParseStudy([]byte(studyFile(nil)), "s.json"); err != nil {
		t.Fatalf("the base study file is refused: %v", err)
	}
	for _, b := range badStudies {
		if _, err := ParseStudy([]byte(b.in), "s.json"); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("ParseStudy(%s)\nerror %v\nwant   %q", b.in, err, b.want)
		}
	}
}

// The shipped study file is SpecificationStudy.
func TestSpecificationStudyIsTheShippedFile(t *testing.T) {
	data, err := os.ReadFile("../examples/study.json")
	if err != nil {
		t.Fatal(err)
	}
	shipped, err := ParseStudy(data, "examples/study.json")
	if err != nil {
		t.Fatal(err)
	}
	if spec := SpecificationStudy(); !reflect.DeepEqual(shipped, spec) {
		t.Errorf("examples/study.json is\n%+v\nSpecificationStudy() is\n%+v", shipped, spec)
	}
}

// FuzzParseStudy: no input panics; what parses validates, has disjoint seed
// sets and names each policy once.
func FuzzParseStudy(f *testing.F) {
	f.Add([]byte(`{"rates_rps":[100],"heterogeneity":["default"],"scenarios":["steady"],"weights":[0.35],"development_seeds":[1],"validation_seeds":[2],"policies":["adaptive"],"protocol":{"warmup_ms":0,"measure_ms":100,"slo_ms":50}}`))
	f.Add([]byte(`{"rates_rps":[1e999]}`))
	for _, b := range badStudies {
		f.Add([]byte(b.in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseStudy(data, "fuzz.json")
		if err != nil {
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("parsed config fails validation: %v", err)
		}
		for _, s := range c.ValidationSeeds {
			if slices.Contains(c.DevelopmentSeeds, s) {
				t.Fatalf("seed %d is both a development and a validation seed", s)
			}
		}
		for i, p := range c.Policies {
			if slices.Index(c.Policies, p) != i {
				t.Fatalf("policy %q is named twice", p)
			}
		}
	})
}
