package experiment

import (
	"context"
	"fmt"
	"html"
	"math"

	"github.com/routelab/routelab/engine"
)

// Experiment compares policies on one scenario under the specification's
// protocol: every policy runs the same seeds, and a seed's workload is the
// same for every policy (common random numbers), so the policy is the only
// difference.
type Experiment struct {
	Scenario engine.Scenario
	Policies []engine.PolicySpec
	// Seeds default to 1..10.
	Seeds []uint64
	// Protocol defaults to DefaultProtocol() when zero.
	Protocol engine.Protocol
	// Workers bounds parallel runs (GOMAXPROCS when < 1). Results are
	// identical for any value.
	Workers int
	// Progress, when set, is called after each run (serialised).
	Progress func(done, total int)
	// Keep says what the result keeps of each run: by default (KeepRuns)
	// every run whole, latencies included, for figures; KeepSummaries keeps
	// only each run's RunSummary, for experiments of many seeds.
	Keep Keep
}

// Keep says what an experiment keeps of each run.
type Keep int

const (
	// KeepRuns keeps every run's RunResult (latencies for distribution
	// figures, per-replica shares, events) besides its summary: memory
	// grows with the requests of every run.
	KeepRuns Keep = iota
	// KeepSummaries keeps only each run's RunSummary, under 200 bytes a
	// run whatever its length: PolicyResult.Runs stay nil.
	KeepSummaries
)

// String names the choice as Go code writes it, with what it keeps.
func (k Keep) String() string {
	switch k {
	case KeepRuns:
		return "engine.KeepRuns (every run whole)"
	case KeepSummaries:
		return "engine.KeepSummaries (each run's summary only)"
	}
	return fmt.Sprintf("engine.Keep(%d) (not a valid choice)", int(k))
}

// HTML shows the choice as its text.
func (k Keep) HTML() string { return "<code>" + html.EscapeString(k.String()) + "</code>" }

func (k Keep) validate() error {
	if k != KeepRuns && k != KeepSummaries {
		return fieldErr("keep", int(k), "KeepRuns (0) or KeepSummaries (1)")
	}
	return nil
}

// DefaultSeeds returns seeds 1..n.
func DefaultSeeds(n int) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		out[i] = uint64(i + 1)
	}
	return out
}

// Comparison is the result of an Experiment.
type Comparison struct {
	Scenario engine.Scenario
	Protocol engine.Protocol
	Seeds    []uint64
	// Fingerprints hold each seed's workload hash (the same for every policy).
	Fingerprints []uint64
	Policies     []PolicyResult
}

// PolicyResult is one policy's runs, in seed order, and their summary.
type PolicyResult struct {
	Name string
	// Records summarise every run, in seed order, whatever the experiment
	// keeps: the tables, JSON and CSV are written from them.
	Records []engine.RunSummary
	// Runs are the whole runs, in seed order, when the experiment keeps them
	// (KeepRuns); nil otherwise.
	Runs    []*engine.RunResult
	Summary Summary
}

// Summary aggregates a policy's runs across seeds: medians of per-seed
// figures and the observed min–max p99 range (descriptive, not a confidence
// interval). Latency figures leave out runs without completed cohort
// requests; they are NaN when no run has any.
type Summary struct {
	Runs        int
	LatencyRuns int // runs with at least one completed cohort request

	MedianCohort     float64
	MedianCompleted  float64
	MedianShed       float64
	MedianUnfinished float64
	MedianOnTime     float64

	MedianMean float64
	MedianP50  float64
	MedianP90  float64
	MedianP95  float64
	MedianP99  float64
	P99Min     float64
	P99Max     float64

	MedianSLOMissRate float64
	MedianShedRate    float64
	MedianAttainment  float64
	MedianGoodput     float64
	MedianThroughput  float64
	MeanAttainment    float64

	// metrics holds what the summary reports of each metric, in the order
	// of Metrics(): the one list the named fields above are read from.
	metrics []metricSummary
}

// Compare runs the experiment.
func Compare(ctx context.Context, e Experiment) (*Comparison, error) {
	res, err := RunSweep(ctx, e.Sweep())
	if err != nil {
		return nil, err
	}
	return res.Comparisons[0], nil
}

// Sweep is the experiment as a sweep of one point, the scenario: how
// Compare runs it, and how it is sharded (RunSweepShard, AssembleSweep).
func (e Experiment) Sweep() Sweep {
	return Sweep{
		Points:   []SweepPoint{{Label: e.Scenario.Name, Scenario: e.Scenario}},
		Policies: e.Policies, Seeds: e.Seeds, Protocol: e.Protocol, Workers: e.Workers, Progress: e.Progress, Keep: e.Keep,
	}
}

// checkPolicies requires at least one policy, each named once.
func checkPolicies(ps []engine.PolicySpec) error {
	if len(ps) == 0 {
		return fieldErr("policies", "none", "at least one policy")
	}
	seen := map[string]bool{}
	for i, p := range ps {
		if p.Name == "" {
			return fieldErr(fmt.Sprintf("policies[%d]", i), p.Name, "a named policy")
		}
		if seen[p.Name] {
			return fieldErr(fmt.Sprintf("policies[%d]", i), p.Name, "distinct policy names")
		}
		seen[p.Name] = true
	}
	return nil
}

// checkConstructors requires every policy to have a constructor.
func checkConstructors(ps []engine.PolicySpec) error {
	for i, p := range ps {
		if p.New == nil {
			return fieldErr(fmt.Sprintf("policies[%d]", i), p.Name, "a named policy with a constructor")
		}
	}
	return nil
}

func checkSeeds(seeds []uint64) error {
	seen := map[uint64]bool{}
	for i, s := range seeds {
		if s < 1 {
			return fieldErr(fmt.Sprintf("seeds[%d]", i), s, "an integer >= 1")
		}
		if seen[s] {
			return fieldErr(fmt.Sprintf("seeds[%d]", i), s, "distinct seeds")
		}
		seen[s] = true
	}
	return nil
}

// newComparison prepares a point's result: per policy, a record per seed
// and, with KeepRuns, a place for every run.
func newComparison(scn engine.Scenario, proto engine.Protocol, seeds []uint64, policies []engine.PolicySpec, keep Keep) *Comparison {
	c := &Comparison{Scenario: scn, Protocol: proto, Seeds: seeds, Fingerprints: make([]uint64, len(seeds))}
	for _, p := range policies {
		pr := PolicyResult{Name: p.Name, Records: make([]engine.RunSummary, len(seeds))}
		if keep == KeepRuns {
			pr.Runs = make([]*engine.RunResult, len(seeds))
		}
		c.Policies = append(c.Policies, pr)
	}
	return c
}

// keep stores the run of policy pi on seed si.
func (c *Comparison) keep(pi, si int, r *engine.RunResult) {
	c.keepRecord(pi, si, r.RunSummary)
	if p := &c.Policies[pi]; p.Runs != nil {
		p.Runs[si] = r
	}
}

// keepRecord stores the summary of policy pi's run on seed si.
func (c *Comparison) keepRecord(pi, si int, r engine.RunSummary) { c.Policies[pi].Records[si] = r }

// finish checks common random numbers and summarises each policy's runs.
func (c *Comparison) finish() error {
	for pi := range c.Policies {
		p := &c.Policies[pi]
		for si, r := range p.Records {
			if pi == 0 {
				c.Fingerprints[si] = r.Fingerprint
			} else if r.Fingerprint != c.Fingerprints[si] {
				return fmt.Errorf("engine: seed %d gave policy %q a different workload than %q; common random numbers are broken", c.Seeds[si], p.Name, c.Policies[0].Name)
			}
		}
		p.Summary = summarise(p.Records)
	}
	return nil
}

// SummaryOf aggregates runs across seeds (engine.Summarize is the
// latency statistics of one run).
func SummaryOf(runs []*engine.RunResult) Summary {
	records := make([]engine.RunSummary, len(runs))
	for i, r := range runs {
		records[i] = r.RunSummary
	}
	return summarise(records)
}

// summarise aggregates run records across seeds: for each metric what its
// SummaryKind asks, then the named fields from those.
func summarise(runs []engine.RunSummary) Summary { return summariseWith(runs, engine.Metrics()) }

func summariseWith(runs []engine.RunSummary, metrics []engine.Metric) Summary {
	s := Summary{Runs: len(runs)}
	for _, r := range runs {
		if r.Latency.Count > 0 {
			s.LatencyRuns++
		}
	}
	for _, m := range metrics {
		if m.Summary == 0 {
			continue
		}
		xs := make([]float64, len(runs))
		had := false
		for i := range runs {
			xs[i] = math.NaN()
			if m.Has(&runs[i]) {
				xs[i], had = m.Of(&runs[i]), true
			}
		}
		if !had && m.Optional() {
			continue
		}
		st := metricSummary{key: m.Key, median: engine.Median(xs), min: math.NaN(), max: math.NaN(), mean: math.NaN()}
		if m.Summary&engine.SummaryRange != 0 {
			st.min, st.max = engine.MinMax(xs)
		}
		if m.Summary&engine.SummaryMean != 0 {
			st.mean = engine.Mean(xs)
		}
		s.metrics = append(s.metrics, st)
	}
	s.MedianCohort, s.MedianCompleted = s.MedianOf("cohort_arrivals"), s.MedianOf("completed")
	s.MedianShed, s.MedianUnfinished, s.MedianOnTime = s.MedianOf("shed"), s.MedianOf("unfinished"), s.MedianOf("on_time")
	s.MedianMean, s.MedianP50, s.MedianP90 = s.MedianOf("mean_ms"), s.MedianOf("p50_ms"), s.MedianOf("p90_ms")
	s.MedianP95, s.MedianP99 = s.MedianOf("p95_ms"), s.MedianOf("p99_ms")
	s.P99Min, s.P99Max = s.RangeOf("p99_ms")
	s.MedianSLOMissRate, s.MedianShedRate = s.MedianOf("slo_miss_rate"), s.MedianOf("shed_rate")
	s.MedianAttainment, s.MeanAttainment = s.MedianOf("attainment"), s.MeanOf("attainment")
	s.MedianGoodput, s.MedianThroughput = s.MedianOf("goodput_rps"), s.MedianOf("throughput_rps")
	return s
}

// metricSummary is what a summary keeps of one metric across seeds (NaN
// for what its SummaryKind does not ask).
type metricSummary struct {
	key                    string
	median, min, max, mean float64
}

// reports tells whether the summary has figures of the metric.
func (s Summary) reports(key string) bool {
	for _, m := range s.metrics {
		if m.key == key {
			return true
		}
	}
	return false
}

func (s Summary) of(key string) metricSummary {
	for _, m := range s.metrics {
		if m.key == key {
			return m
		}
	}
	return metricSummary{key: key, median: math.NaN(), min: math.NaN(), max: math.NaN(), mean: math.NaN()}
}

// MedianOf is the median across seeds of the metric a record names key
// (engine.Metrics); NaN for a metric the summary does not report.
func (s Summary) MedianOf(key string) float64 { return s.of(key).median }

// RangeOf is the observed min and max across seeds of a metric whose
// summary reports its range (p99_ms).
func (s Summary) RangeOf(key string) (lo, hi float64) {
	m := s.of(key)
	return m.min, m.max
}

// MeanOf is the mean across seeds of a metric whose summary reports its
// mean (attainment).
func (s Summary) MeanOf(key string) float64 { return s.of(key).mean }

// Policy returns the named policy's result, or nil.
func (c *Comparison) Policy(name string) *PolicyResult {
	for i := range c.Policies {
		if c.Policies[i].Name == name {
			return &c.Policies[i]
		}
	}
	return nil
}
