package experiment

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/internal/spell"
)

// Paired statistics from common random numbers. Every policy of a
// comparison runs every seed's identical workload, so the difference
// between two policies on one seed is the policies' effect alone, and the
// spread of those differences across seeds is far smaller than the spread of
// either policy's own figures. The specification's table stays descriptive
// (medians and the observed p99 range); these intervals sit beside it.

// PairedMethod is how a paired interval is computed.
type PairedMethod string

// The interval methods: Student's t over the per-seed differences, or the
// percentile interval of BootstrapResamples seeded resamples of them.
const (
	PairedT         PairedMethod = "t"
	PairedBootstrap PairedMethod = "bootstrap"
)

// String names the method.
func (m PairedMethod) String() string { return string(m) }

// describe says what the interval is, for a table's headline.
func (m PairedMethod) describe() string {
	if m == PairedBootstrap {
		return fmt.Sprintf("bootstrap percentile interval (%d resamples)", BootstrapResamples)
	}
	return "paired t-interval"
}

// PairedOptions say what a paired comparison compares.
type PairedOptions struct {
	// Baseline is the policy every other is compared with.
	Baseline string
	// Policies compared with the baseline, in this order; by default every
	// other policy, in the comparison's order.
	Policies []string
	// Metrics by their record names; by default PairedMetricKeys(),
	// and for a comparison of the serving model ServingPairedMetricKeys().
	Metrics []string
	// Method defaults to PairedT.
	Method PairedMethod
}

// pairedPlan is PairedOptions checked, with its defaults filled in.
type pairedPlan struct {
	baseline string
	policies []string
	metrics  []engine.Metric
	method   PairedMethod
}

// Check refuses options that do not fit a result of these policies and this
// many seeds: a baseline or a policy it does not hold, a policy compared with
// itself or twice, an unknown metric or one with no better direction, an
// unknown method, or fewer than two seeds (an interval needs two).
func (o PairedOptions) Check(policies []string, seeds int) error {
	_, err := o.plan(policies, seeds)
	return err
}

func (o PairedOptions) plan(policies []string, seeds int) (pairedPlan, error) {
	p := pairedPlan{baseline: o.Baseline, method: o.Method}
	have := "one of the compared policies: " + strings.Join(policies, ", ")
	if !slices.Contains(policies, o.Baseline) {
		return p, fieldErr("baseline", o.Baseline, have)
	}
	var err error
	if p.policies, err = o.comparedPolicies(policies, have); err != nil {
		return p, err
	}
	if p.metrics, err = o.metrics(); err != nil {
		return p, err
	}
	if p.method == "" {
		p.method = PairedT
	}
	if p.method != PairedT && p.method != PairedBootstrap {
		return p, fieldErr("method", string(p.method), `"t" or "bootstrap"`)
	}
	if seeds < 2 {
		return p, fieldErr("seeds", seeds, "at least 2 seeds for an interval")
	}
	return p, nil
}

// comparedPolicies checks the policies compared with the baseline, or lists
// every other one.
func (o PairedOptions) comparedPolicies(policies []string, have string) ([]string, error) {
	if o.Policies == nil {
		others := slices.DeleteFunc(slices.Clone(policies), func(n string) bool { return n == o.Baseline })
		if len(others) == 0 {
			return nil, fieldErr("policies", "only the baseline", fmt.Sprintf("at least one policy besides the baseline %q", o.Baseline))
		}
		return others, nil
	}
	if len(o.Policies) == 0 {
		return nil, fieldErr("policies", "none", fmt.Sprintf("at least one policy besides the baseline %q", o.Baseline))
	}
	for i, name := range o.Policies {
		field := fmt.Sprintf("policies[%d]", i)
		switch {
		case name == o.Baseline:
			return nil, fieldErr(field, name, fmt.Sprintf("a policy other than the baseline %q (%s)", o.Baseline, have))
		case !slices.Contains(policies, name):
			return nil, fieldErr(field, name, have)
		case slices.Index(o.Policies, name) < i:
			return nil, fieldErr(field, name, "each policy once")
		}
	}
	return o.Policies, nil
}

// CheckMetrics refuses the options' metrics unless each is a known metric
// with a better direction, named once (what Check refuses of them, before
// there is a result to check the rest against).
func (o PairedOptions) CheckMetrics() error {
	_, err := o.metrics()
	return err
}

// metrics resolves the metric names; each must have a better direction, or
// no side could win.
func (o PairedOptions) metrics() ([]engine.Metric, error) {
	keys := o.Metrics
	if keys == nil {
		keys = PairedMetricKeys()
	}
	if len(keys) == 0 {
		return nil, fieldErr("metrics", "none", "at least one metric")
	}
	var out []engine.Metric
	for i, k := range keys {
		field := fmt.Sprintf("metrics[%d]", i)
		m, err := engine.MetricByKey(k)
		if err != nil || m.Better == engine.NoDirection {
			directed := directedMetricKeys()
			return nil, &engine.FieldError{Field: field, Value: k, Allowed: "a metric with a better direction: " + strings.Join(directed, ", "), Suggest: spell.Nearest(k, directed)}
		}
		if slices.Index(keys, k) < i {
			return nil, fieldErr(field, k, "each metric once")
		}
		out = append(out, m)
	}
	return out, nil
}

// directedMetricKeys lists the metrics a paired comparison can report.
func directedMetricKeys() []string {
	var out []string
	for _, m := range engine.Metrics() {
		if m.Better != engine.NoDirection {
			out = append(out, m.Key)
		}
	}
	return out
}

// SeedPair is one seed of a paired comparison: a metric's value for the
// baseline and for the policy on the same workload, and their difference.
type SeedPair struct {
	Seed     uint64
	Baseline float64
	Policy   float64
	// Diff is Policy − Baseline; NaN when either value is undefined (a run
	// without completed cohort requests has no latency).
	Diff float64
	// Winner is +1 when the policy did better on this seed, −1 when the
	// baseline did, 0 for a tie or an undefined difference.
	Winner int
}

// newSeedPair pairs two values of metric m on one seed.
func newSeedPair(m engine.Metric, seed uint64, baseline, policy float64) SeedPair {
	p := SeedPair{Seed: seed, Baseline: baseline, Policy: policy, Diff: math.NaN()}
	if finite(baseline) && finite(policy) {
		p.Diff = policy - baseline
		p.Winner = m.Better.Winner(p.Diff)
	}
	return p
}

// PairSeeds pairs two policies of a comparison seed by seed in metric m:
// the per-seed differences that the paired statistics summarise and the
// paired figure draws. It needs no minimum of seeds.
func PairSeeds(m engine.Metric, baseline, policy *PolicyResult) []SeedPair {
	out := make([]SeedPair, min(baseline.seeds(), policy.seeds()))
	for i := range out {
		a, b := baseline.summaryAt(i), policy.summaryAt(i)
		out[i] = newSeedPair(m, a.Seed, m.Of(a), m.Of(b))
	}
	return out
}

// seeds counts the policy's seeds: its records, or the runs of a result
// built from whole runs alone (as SummaryOf allows).
func (p *PolicyResult) seeds() int {
	if p.Records == nil {
		return len(p.Runs)
	}
	return len(p.Records)
}

// summaryAt is the summary of the policy's i-th seed.
func (p *PolicyResult) summaryAt(i int) *engine.RunSummary {
	if p.Records == nil {
		return &p.Runs[i].RunSummary
	}
	return &p.Records[i]
}

// PairedStat is one metric of a paired comparison: the mean per-seed
// difference policy − baseline, its interval, who won on how many seeds,
// and how wide the interval would be without pairing.
type PairedStat struct {
	Metric   engine.Metric
	Baseline string
	Policy   string
	Method   PairedMethod
	// Pairs are the seeds, in order; seeds where either value is undefined
	// are left out of everything below.
	Pairs []SeedPair
	// Seeds counts the pairs with both values.
	Seeds        int
	BaselineMean float64
	PolicyMean   float64
	// DiffMean is the mean difference and StdErr its standard error s/√n.
	DiffMean float64
	StdErr   float64
	// CILow and CIHigh bound the PairedLevel interval of the mean difference
	// by Method; NaN with fewer than two seeds.
	CILow, CIHigh float64
	// Wins, Losses and Ties count the seeds where the policy did better
	// than, worse than, or the same as the baseline.
	Wins, Losses, Ties int
	// UnpairedLow and UnpairedHigh bound Welch's t-interval of the same
	// difference with the two samples taken as independent, as if every
	// policy had run its own workloads.
	UnpairedLow, UnpairedHigh float64
	// WidthRatio is the paired t-interval's width over Welch's, whatever
	// Method is: below 1, pairing narrowed the interval. NaN when Welch's
	// width is zero.
	WidthRatio float64
}

// pairedStat summarises the pairs of one metric.
func pairedStat(m engine.Metric, method PairedMethod, baseline, policy string, pairs []SeedPair) PairedStat {
	s := PairedStat{Metric: m, Baseline: baseline, Policy: policy, Method: method, Pairs: pairs}
	var x, y, d []float64
	for _, p := range pairs {
		if math.IsNaN(p.Diff) {
			continue
		}
		x, y, d = append(x, p.Baseline), append(y, p.Policy), append(d, p.Diff)
		switch p.Winner {
		case 1:
			s.Wins++
		case -1:
			s.Losses++
		default:
			s.Ties++
		}
	}
	s.Seeds = len(d)
	s.BaselineMean, s.PolicyMean = engine.Mean(x), engine.Mean(y)
	var tLow, tHigh float64
	s.DiffMean, s.StdErr, tLow, tHigh = pairedT(d)
	s.CILow, s.CIHigh = tLow, tHigh
	if method == PairedBootstrap {
		s.CILow, s.CIHigh = bootstrap(d, engine.NewRand(bootstrapSeed, engine.StreamBootstrap))
	}
	s.UnpairedLow, s.UnpairedHigh = welch(x, y)
	s.WidthRatio = math.NaN()
	if w := s.UnpairedHigh - s.UnpairedLow; w > 0 {
		s.WidthRatio = (tHigh - tLow) / w
	}
	return s
}

// The verdicts of a paired statistic, from the policy's side. They name
// the level because PairedLevel is fixed.
const (
	VerdictBetter      = "better"
	VerdictWorse       = "worse"
	VerdictUndecided   = "not distinguishable from zero at 95 %"
	VerdictIdentical   = "identical on every seed"
	VerdictTooFewSeeds = "fewer than 2 seeds with both values"
)

// Verdict says what the interval shows: the policy better or worse than the
// baseline (the interval excludes zero), not distinguishable from zero at
// 95 % (it spans zero), identical on every seed, or too few seeds.
func (s PairedStat) Verdict() string {
	switch {
	case s.Seeds < 2 || math.IsNaN(s.CILow):
		return VerdictTooFewSeeds
	case s.Ties == s.Seeds:
		return VerdictIdentical
	case s.CILow <= 0 && 0 <= s.CIHigh:
		return VerdictUndecided
	case s.Metric.Better.Winner(s.DiffMean) > 0:
		return VerdictBetter
	}
	return VerdictWorse
}

// Paired is a paired comparison: each policy against a baseline, metric by
// metric, over the same seeds.
type Paired struct {
	// Label says what was compared: the scenario, a sweep's point, a
	// study's validation.
	Label    string
	Baseline string
	Method   PairedMethod
	Seeds    []uint64
	// Stats run policy by policy, metric by metric.
	Stats []PairedStat
}

// PairedMetricKeys are the metrics a paired comparison reports unless told
// otherwise: the tail, the SLO outcome and the losses.
func PairedMetricKeys() []string {
	return []string{"p99_ms", "p90_ms", "attainment", "goodput_rps", "shed"}
}

// ServingPairedMetricKeys are the metrics a paired comparison of the
// serving model compares by default, the serving counterparts of
// PairedMetricKeys: its tail latencies, its SLO's attainment and
// goodput, and the losses (the specification's defaults judge the
// end-to-end 50 ms SLO, which no LLM request meets).
func ServingPairedMetricKeys() []string {
	return []string{"ttft_p99_ms", "itl_p99_ms", "serving_attainment", "serving_goodput_rps", "shed"}
}

// Paired compares policies of the comparison with a baseline, seed by seed.
func (c *Comparison) Paired(o PairedOptions) (*Paired, error) {
	if o.Metrics == nil && c.Scenario.Serving != nil {
		o.Metrics = ServingPairedMetricKeys()
	}
	plan, err := o.plan(c.policyNames(), len(c.Seeds))
	if err != nil {
		return nil, err
	}
	out := &Paired{Label: c.Scenario.Name, Baseline: plan.baseline, Method: plan.method, Seeds: c.Seeds}
	base := c.Policy(plan.baseline)
	for _, name := range plan.policies {
		pol := c.Policy(name)
		for _, m := range plan.metrics {
			out.Stats = append(out.Stats, pairedStat(m, plan.method, plan.baseline, name, PairSeeds(m, base, pol)))
		}
	}
	return out, nil
}

// policyNames lists the comparison's policies in order.
func (c *Comparison) policyNames() []string {
	out := make([]string, len(c.Policies))
	for i, p := range c.Policies {
		out[i] = p.Name
	}
	return out
}

// Stat returns the statistic of policy against the baseline in the metric
// a record names key, or nil.
func (p *Paired) Stat(policy, key string) *PairedStat {
	for i := range p.Stats {
		if s := &p.Stats[i]; s.Policy == policy && s.Metric.Key == key {
			return s
		}
	}
	return nil
}
