package lab

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/experiment"
	"github.com/routelab/routelab/plot"
)

// Paired is b compared with a seed by seed: every seed gave both policies
// the same workload (common random numbers), so each difference b − a is
// the policies' effect alone. Per metric (p99, p90, attainment, goodput,
// shed) it holds the mean difference and its 95 % interval, the seeds each
// side won, and the interval's width over the unpaired (Welch) one. It
// shows as a table beside the comparison's own, which stays descriptive;
// Chart draws the per-seed differences.
type Paired struct {
	*experiment.Paired
	c       *Comparison
	a, b    string
	metrics []string
}

// PairedOption chooses what a paired comparison reports (Metrics).
type PairedOption struct{ metrics []string }

// Metrics makes a paired comparison report these metrics, by their record
// names (engine.Metrics lists them: "p95_ms", "ttft_p90_ms", "shed_rate",
// …), in this order, instead of its defaults (p99, p90, attainment, goodput
// and shed; TTFT and ITL p99, serving attainment and goodput, and shed for
// the serving model). Each must be known, have a better
// direction, and be named once.
func Metrics(keys ...string) PairedOption {
	o := experiment.PairedOptions{Metrics: slices.Clone(keys)}
	if o.Metrics == nil {
		o.Metrics = []string{}
	}
	if err := o.CheckMetrics(); err != nil {
		fail("Metrics", err)
	}
	return PairedOption{metrics: o.Metrics}
}

// pairedMetrics is the metrics the options choose, nil for the defaults.
func pairedMetrics(opts []PairedOption) []string {
	var keys []string
	for _, o := range opts {
		keys = append(keys, o.metrics...)
	}
	return keys
}

// Paired compares policy b with the baseline a, seed by seed, with paired
// t-intervals, on its default metrics or those Metrics chooses. a and b
// must be two different policies of the comparison, which must have at
// least 2 seeds.
func (c *Comparison) Paired(a, b string, opts ...PairedOption) *Paired {
	return c.paired("Comparison.Paired", a, b, experiment.PairedT, pairedMetrics(opts))
}

func (c *Comparison) paired(op, a, b string, method experiment.PairedMethod, metrics []string) *Paired {
	checkPair(op, a, b, policyNames(c.Comparison))
	p, err := c.Comparison.Paired(experiment.PairedOptions{Baseline: a, Policies: []string{b}, Method: method, Metrics: metrics})
	if err != nil {
		fail(op, err)
	}
	return &Paired{Paired: p, c: c, a: a, b: b, metrics: metrics}
}

// Bootstrap compares the same two policies on the same metrics with
// bootstrap percentile intervals (10,000 resamples of the seeds, from a
// seeded stream of their own: the same intervals every time) instead of
// t-intervals.
func (p *Paired) Bootstrap() *Paired {
	if p.c == nil {
		failf("Paired.Bootstrap", "empty paired comparison (Comparison.Paired makes one)")
	}
	return p.c.paired("Paired.Bootstrap", p.a, p.b, experiment.PairedBootstrap, p.metrics)
}

// Chart draws the per-seed differences b − a in p99 and attainment, each
// bar in the colour of the policy that did better on that seed.
func (p *Paired) Chart() *Figure {
	if p.c == nil {
		failf("Paired.Chart", "empty paired comparison (Comparison.Paired makes one)")
	}
	return p.c.env.figure(func(x export) (*plot.Figure, error) { return plot.Paired(p.c.Comparison, p.a, p.b, x.options()...) })
}

// Save writes the statistics: .json (what was compared and a record per
// metric) or .csv (a row per metric).
func (p *Paired) Save(path string) {
	if p.Paired == nil {
		failf("Paired.Save", "empty paired comparison (Comparison.Paired makes one)")
	}
	var b bytes.Buffer
	var err error
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json":
		err = p.WriteJSON(&b)
	case ".csv":
		err = p.WriteCSV(&b)
	case ".tex":
		b.WriteString(p.Table(plot.TableLaTeX))
	case ".md":
		b.WriteString(p.Table(plot.TableMarkdown))
	default:
		failf("Paired.Save", "%s: unknown extension (want .json, .csv, .tex or .md; Chart().Save writes the figure)", path)
	}
	if err == nil {
		err = plot.WriteFile(path, b.Bytes())
	}
	if err != nil {
		fail("Paired.Save", err)
	}
}

// Table returns the paired table as "latex" (booktabs) or "markdown", for
// a write-up.
func (p *Paired) Table(format string) string {
	if p.Paired == nil {
		failf("Paired.Table", "empty paired comparison (Comparison.Paired makes one)")
	}
	t, err := plot.PairedTableAs(p.Paired, format)
	if err != nil {
		fail("Paired.Table", err)
	}
	return t
}

// Bundle shows the paired table (text and HTML).
func (p Paired) Bundle() display.Bundle {
	if p.Paired == nil {
		return none("paired comparison", "Comparison.Paired")
	}
	return display.Bundle{display.TextPlain: p.String(), display.TextHTML: p.HTML()}
}

// Paired compares policy b with the baseline a at every rate of the sweep,
// seed by seed, with paired t-intervals: the uncertainty of each point.
// Metrics chooses what it reports.
func (s *SweepResult) Paired(a, b string, opts ...PairedOption) *experiment.SweepPaired {
	if len(s.Comparisons) > 0 {
		checkPair("SweepResult.Paired", a, b, policyNames(s.Comparisons[0]))
	}
	p, err := s.SweepResult.Paired(experiment.PairedOptions{Baseline: a, Policies: []string{b}, Metrics: pairedMetrics(opts)})
	if err != nil {
		fail("SweepResult.Paired", err)
	}
	return p
}

// Paired compares validated policy b with the baseline a, seed by seed over
// the validation seeds (each seed's figure its mean over the conditions),
// with paired t-intervals. Metrics chooses what it reports.
func (s *StudyResult) Paired(a, b string, opts ...PairedOption) *experiment.Paired {
	checkPair("StudyResult.Paired", a, b, s.Config.Policies)
	p, err := s.StudyResult.Paired(experiment.PairedOptions{Baseline: a, Policies: []string{b}, Metrics: pairedMetrics(opts)})
	if err != nil {
		fail("StudyResult.Paired", err)
	}
	return p
}

// checkPair refuses a and b unless they are two different policies of
// names, naming the argument at fault and the policies there are.
func checkPair(op, a, b string, names []string) {
	have := "one of the compared policies: " + strings.Join(names, ", ")
	check(op, slices.Contains(names, a), "a", a, have)
	check(op, slices.Contains(names, b), "b", b, have)
	check(op, a != b, "b", b, fmt.Sprintf("a policy other than a (%q), %s", a, have))
}

func policyNames(c *experiment.Comparison) []string {
	out := make([]string, len(c.Policies))
	for i, p := range c.Policies {
		out[i] = p.Name
	}
	return out
}
