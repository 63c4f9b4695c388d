package engine

import (
	"context"
	"fmt"
	"math"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Every bad value is rejected with an error naming the field, the value and
// what is allowed.
func TestValidationMessages(t *testing.T) {
	base := func() Scenario { return NewScenario("v") }
	cases := []struct {
		name   string
		mutate func(*Scenario)
		want   []string
	}{
		{"zero rate", func(s *Scenario) { s.Rate = 0 }, []string{"rate_rps", "0", "(0, 1e+06]"}},
		{"negative rate", func(s *Scenario) { s.Rate = -5 }, []string{"rate_rps", "-5"}},
		{"NaN rate", func(s *Scenario) { s.Rate = math.NaN() }, []string{"rate_rps", "NaN"}},
		{"Inf rate", func(s *Scenario) { s.Rate = math.Inf(1) }, []string{"rate_rps", "+Inf"}},
		{"no replicas", func(s *Scenario) { s.Speeds = nil }, []string{"replicas", "0", "1 to 10000"}},
		{"bad speed", func(s *Scenario) { s.Speeds[1] = math.NaN() }, []string{"speeds_ms[1]", "NaN"}},
		{"zero cap", func(s *Scenario) { s.QueueCap = 0 }, []string{"queue_cap", "0", "1 to 100000"}},
		{"jitter", func(s *Scenario) { s.Jitter = 1.5 }, []string{"jitter", "1.5", "[0, 0.99]"}},
		{"event after run", func(s *Scenario) { s.Events = []Event{{At: 20000, Kind: EventFail, Replica: 1}} },
			[]string{"events[0].at_ms", "20000", "0 to 15000 ms"}},
		{"event NaN time", func(s *Scenario) { s.Events = []Event{{At: math.NaN(), Kind: EventFail, Replica: 1}} },
			[]string{"events[0].at_ms", "NaN"}},
		{"missing replica", func(s *Scenario) { s.Events = []Event{{At: 10, Kind: EventFail, Replica: 4}} },
			[]string{"events[0].replica", "4", "1 to 3"}},
		{"bad kind", func(s *Scenario) { s.Events = []Event{{At: 10, Kind: "explode", Replica: 1}} },
			[]string{"events[0].kind", `"explode"`}},
		{"bad slow factor", func(s *Scenario) { s.Events = []Event{{At: 10, Kind: EventSlow, Replica: 1, Value: -2}} },
			[]string{"events[0].value", "-2"}},
		{"rate event in trace", func(s *Scenario) {
			s.Arrivals, s.Trace = Replay, []TraceRecord{{At: 1}}
			s.Events = []Event{{At: 10, Kind: EventSetRate, Value: 5}}
		}, []string{"events[0].kind", "no rate events"}},
		{"empty trace", func(s *Scenario) { s.Arrivals = Replay }, []string{"trace", "empty"}},
		{"bad arrivals", func(s *Scenario) { s.Arrivals = "bursty" }, []string{"arrivals", `"bursty"`, "poisson, periodic or trace"}},
		{"bad demand", func(s *Scenario) { s.Demand.Kind = "pareto" }, []string{"demand.kind", `"pareto"`}},
		{"bad demand mean", func(s *Scenario) { s.Demand = DemandModel{Kind: ExponentialDemand, Mean: -1} }, []string{"demand.mean_ms", "-1"}},
		{"bad token max", func(s *Scenario) { s.Demand.Tokens.Output.Max = 2 }, []string{"tokens.output.max", "2"}},
	}
	for _, c := range cases {
		s := base()
		c.mutate(&s)
		err := s.Validate(15000)
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not mention %q", c.name, err, w)
			}
		}
	}
}

func TestExperimentValidation(t *testing.T) {
	scn := NewScenario("v")
	cases := []struct {
		name string
		e    Experiment
		want string
	}{
		{"no policies", Experiment{Scenario: scn}, "policies: \"none\" is not allowed (want at least one policy)"},
		{"zero seed", Experiment{Scenario: scn, Policies: []PolicySpec{LeastQueue()}, Seeds: []uint64{1, 0}}, "seeds[1]: 0 is not allowed"},
		{"duplicate seed", Experiment{Scenario: scn, Policies: []PolicySpec{LeastQueue()}, Seeds: []uint64{3, 3}}, "distinct seeds"},
		{"duplicate policy", Experiment{Scenario: scn, Policies: []PolicySpec{LeastQueue(), LeastQueue()}}, "distinct policy names"},
		{"warm-up past horizon", Experiment{Scenario: scn, Policies: []PolicySpec{LeastQueue()}, Protocol: Protocol{Warmup: 5000, Measure: 0, SLO: 50}}, "measure_ms: 0"},
		{"off grid", Experiment{Scenario: scn, Policies: []PolicySpec{LeastQueue()}, Protocol: Protocol{Warmup: 0.3, Measure: 100, SLO: 50}}, "warmup_ms: 0.3"},
		{"bad SLO", Experiment{Scenario: scn, Policies: []PolicySpec{LeastQueue()}, Protocol: Protocol{Warmup: 0, Measure: 100, SLO: math.NaN()}}, "slo_ms: NaN"},
		{"bad adaptive", Experiment{Scenario: scn, Policies: []PolicySpec{Adaptive(AdaptiveParams{C: -1, Alpha: 0.1, Ceiling: 100})}}, "adaptive.c: -1"},
		{"bad alpha", Experiment{Scenario: scn, Policies: []PolicySpec{LatencyAware(2)}}, "alpha: 2"},
	}
	for _, c := range cases {
		_, err := Compare(context.Background(), c.e)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", c.name, err, c.want)
		}
	}
	if _, err := NewSimulator(scn, LeastQueue(), SimOptions{Seed: 0}); err == nil || !strings.Contains(err.Error(), "seed: 0") {
		t.Errorf("seed 0: %v", err)
	}
	s, _ := NewSimulator(scn, LeastQueue(), SimOptions{Seed: 1})
	for _, dt := range []float64{-1, math.NaN(), math.Inf(1)} {
		if err := s.Advance(dt); err == nil || !strings.Contains(err.Error(), "dt:") {
			t.Errorf("Advance(%v): %v", dt, err)
		}
	}
	if err := s.Apply(Event{Kind: EventFail, Replica: 9}); err == nil || !strings.Contains(err.Error(), "replica: 9") {
		t.Errorf("Apply on a missing replica: %v", err)
	}
}

func TestTraceParsing(t *testing.T) {
	good := "arrival_ms,prompt_tokens,output_tokens\n# a comment\n0.5,100,20\n1.5, 80, 10\n1.5,0,0\n"
	recs, err := ReadTrace(strings.NewReader(good), "good.csv")
	if err != nil || len(recs) != 3 || recs[1] != (TraceRecord{At: 1.5, Prompt: 80, Output: 10}) {
		t.Fatalf("ReadTrace = %v, %v", recs, err)
	}
	bad := []struct{ in, want string }{
		{"1,2\n", "t.csv:1: 2 fields"},
		{"0,1,1\nx,1,1\n", `t.csv:2: arrival_ms "x"`},
		{"0,1,1\n-3,1,1\n", `t.csv:2: arrival_ms "-3"`},
		{"0,1,1\n5,1,1\n4,1,1\n", "t.csv:3: arrival_ms 4 is earlier than the previous line's 5"},
		{"0,1.5,1\n", `t.csv:1: prompt_tokens "1.5"`},
		{"0,1,-1\n", `t.csv:1: output_tokens "-1"`},
		{"NaN,1,1\n", `t.csv:1: arrival_ms "NaN"`},
		{"", "t.csv: no requests"},
		{"0,1,\"x\n", "t.csv"},
	}
	for _, b := range bad {
		if _, err := ReadTrace(strings.NewReader(b.in), "t.csv"); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("ReadTrace(%q) error %v, want %q", b.in, err, b.want)
		}
	}
}

// FuzzReadTrace: any input parses or fails cleanly, and what parses is valid.
func FuzzReadTrace(f *testing.F) {
	f.Add("arrival_ms,prompt_tokens,output_tokens\n1,2,3\n")
	f.Add("0,1,1\n5,1,1\n4,1,1\n")
	f.Add("1e308,9,9\n\"\n")
	f.Fuzz(func(t *testing.T, in string) {
		recs, err := ReadTrace(strings.NewReader(in), "fuzz.csv")
		if err != nil {
			return
		}
		s := NewScenario("fuzz")
		s.Arrivals, s.Trace = Replay, recs
		if err := s.Validate(math.Inf(1)); err != nil {
			t.Fatalf("parsed trace fails validation: %v", err)
		}
	})
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
