package engine

import (
	"math"
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
