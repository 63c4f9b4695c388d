package docgen

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/routelab/routelab/experiment"
)

// studyFile is the study docs/model.md reports: the specification's
// protocol, as `routelab study examples/study.json` runs it.
const studyFile = "examples/study.json"

// runStudy runs the study once for every part that reports it.
func (g *Generator) runStudy() (*experiment.StudyResult, error) {
	g.studyOnce.Do(func() {
		data, err := os.ReadFile(filepath.Join(g.Root, studyFile))
		if err != nil {
			g.studyErr = err
			return
		}
		cfg, err := experiment.ParseStudy(data, studyFile)
		if err != nil {
			g.studyErr = err
			return
		}
		g.study, g.studyErr = experiment.RunStudy(g.ctx, cfg, 0, nil)
	})
	return g.study, g.studyErr
}

// studyProtocol describes the study file's grid in a sentence.
func studyProtocol(g *Generator) (string, error) {
	st, err := g.runStudy()
	if err != nil {
		return "", err
	}
	c := st.Config
	conds := len(c.Rates) * len(c.Heterogeneity) * len(c.Scenarios)
	return fmt.Sprintf("%d conditions (rates %s req/s × %s heterogeneity × the scenarios %s), exploration weights {%s}, %d development seeds, then %d validation seeds for each of %s (%d runs per policy).",
		conds, list(c.Rates), strings.Join(c.Heterogeneity, "/"), strings.Join(c.Scenarios, ", "), list(c.Weights),
		len(c.DevelopmentSeeds), len(c.ValidationSeeds), strings.Join(c.Policies, ", "), conds*len(c.ValidationSeeds)), nil
}

func list(xs []float64) string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = fmt.Sprint(x)
	}
	return strings.Join(out, ", ")
}

// studyRuns is how many runs the study makes in both phases.
func studyRuns(g *Generator) (string, error) {
	st, err := g.runStudy()
	if err != nil {
		return "", err
	}
	return thousands(len(st.Development) + len(st.Validated)), nil
}

func percent(x float64) string { return fmt.Sprintf("%.2f %%", 100*x) }

// studyDevelopment is the table of mean attainment per exploration weight.
func studyDevelopment(g *Generator) (string, error) {
	st, err := g.runStudy()
	if err != nil {
		return "", err
	}
	var rows [][]string
	for _, w := range st.Weights {
		c, score := fmt.Sprint(w.C), percent(w.MeanAttainment)
		if w.C == st.SelectedC {
			c, score = "**"+c+"**", "**"+score+"** (selected)"
		}
		rows = append(rows, []string{c, score})
	}
	return table([]string{"development: c", "mean attainment"}, rows), nil
}

// studyValidation is the table of mean attainment per policy on the
// validation seeds.
func studyValidation(g *Generator) (string, error) {
	st, err := g.runStudy()
	if err != nil {
		return "", err
	}
	var rows [][]string
	for _, s := range st.Validation {
		name := policyTitle(s.Name)
		if !math.IsNaN(s.C) {
			name += fmt.Sprintf(" (c = %g)", s.C)
		}
		rows = append(rows, []string{name, percent(s.MeanAttainment)})
	}
	return table([]string{fmt.Sprintf("validation (%d runs each)", st.Validation[0].Runs), "mean attainment"}, rows), nil
}

// policyTitle names a built-in policy as the specification does.
func policyTitle(name string) string {
	switch name {
	case "round-robin":
		return "Round Robin"
	case "least-queue":
		return "Least Queue"
	case "latency-aware":
		return "Latency Aware"
	case "adaptive":
		return "Adaptive"
	}
	return name
}

func studySelected(g *Generator) (string, error) {
	st, err := g.runStudy()
	if err != nil {
		return "", err
	}
	return fmt.Sprint(st.SelectedC), nil
}

// studySpread is the range of the weights' development scores, in
// percentage points.
func studySpread(g *Generator) (string, error) {
	st, err := g.runStudy()
	if err != nil {
		return "", err
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, w := range st.Weights {
		lo, hi = min(lo, w.MeanAttainment), max(hi, w.MeanAttainment)
	}
	return fmt.Sprintf("%.2f", 100*(hi-lo)), nil
}

func validationScore(g *Generator, policy string) (string, error) {
	st, err := g.runStudy()
	if err != nil {
		return "", err
	}
	for _, s := range st.Validation {
		if s.Name == policy {
			return percent(s.MeanAttainment), nil
		}
	}
	return "", fmt.Errorf("the study validates no %s", policy)
}

func studyAdaptive(g *Generator) (string, error)     { return validationScore(g, "adaptive") }
func studyLatencyAware(g *Generator) (string, error) { return validationScore(g, "latency-aware") }

// pp writes a fraction in signed percentage points, with a true minus.
func pp(x float64) string { return strings.Replace(fmt.Sprintf("%+.2f", 100*x), "-", "−", 1) }

// statePaired states a paired difference of attainment in a phrase.
func statePaired(s experiment.PairedStat) string {
	return fmt.Sprintf("%s pp, 95 %% interval [%s, %s] pp over %d seeds (%d won, %d lost): %s",
		pp(s.DiffMean), pp(s.CILow), pp(s.CIHigh), s.Seeds, s.Wins, s.Losses, s.Verdict())
}

// studyRunnerUp is the weight the selected one is measured against.
func studyRunnerUp(g *Generator) (string, error) {
	st, err := g.runStudy()
	if err != nil {
		return "", err
	}
	if st.Margin == nil {
		return "", fmt.Errorf("the study has a single weight, so no runner-up")
	}
	for _, w := range st.Weights {
		if w.Name == st.Margin.Baseline {
			return fmt.Sprint(w.C), nil
		}
	}
	return "", fmt.Errorf("the runner-up %s is no weight of the study", st.Margin.Baseline)
}

// studyMargin is the selected weight minus the runner-up, seed by seed.
func studyMargin(g *Generator) (string, error) {
	st, err := g.runStudy()
	if err != nil {
		return "", err
	}
	if st.Margin == nil {
		return "", fmt.Errorf("the study has a single weight, so no margin")
	}
	return statePaired(*st.Margin), nil
}

// studyMarginStdErr is the margin's standard error in percentage points.
func studyMarginStdErr(g *Generator) (string, error) {
	st, err := g.runStudy()
	if err != nil {
		return "", err
	}
	if st.Margin == nil {
		return "", fmt.Errorf("the study has a single weight, so no margin")
	}
	return fmt.Sprintf("%.2f", 100*st.Margin.StdErr), nil
}

// studyWeightStdErr is a weight's score's standard error over the seeds,
// the mean over the weights, in percentage points.
func studyWeightStdErr(g *Generator) (string, error) {
	st, err := g.runStudy()
	if err != nil {
		return "", err
	}
	var sum float64
	for _, w := range st.Weights {
		sum += w.StdErr
	}
	return fmt.Sprintf("%.1f", 100*sum/float64(len(st.Weights))), nil
}

// studyGain is Adaptive against Latency Aware in validation, seed by seed.
func studyGain(g *Generator) (string, error) {
	st, err := g.runStudy()
	if err != nil {
		return "", err
	}
	p, err := st.Paired(experiment.PairedOptions{Baseline: "latency-aware", Metrics: []string{"attainment"}})
	if err != nil {
		return "", err
	}
	s := p.Stat("adaptive", "attainment")
	if s == nil {
		return "", fmt.Errorf("the study validates no adaptive")
	}
	return statePaired(*s), nil
}
