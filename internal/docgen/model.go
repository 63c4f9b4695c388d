package docgen

import (
	"fmt"
	"strings"

	"github.com/routelab/routelab/engine"
)

// table renders a Markdown table.
func table(head []string, rows [][]string) string {
	var b strings.Builder
	b.WriteString("| " + strings.Join(head, " | ") + " |\n|")
	for range head {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, r := range rows {
		b.WriteString("| " + strings.Join(r, " | ") + " |\n")
	}
	return b.String()
}

func speeds(h engine.Heterogeneity) string {
	s, err := h.Speeds()
	if err != nil {
		panic(err) // the two named settings always have speeds
	}
	parts := make([]string, len(s))
	for i, v := range s {
		parts[i] = fmt.Sprintf("%g", v)
	}
	return strings.Join(parts, " / ") + " ms"
}

func tokenCount(c engine.TokenCount) string {
	return fmt.Sprintf("round(%g·e^(%g Z)) clamped to [%d, %d]", c.Median, c.Sigma, c.Min, c.Max)
}

// modelConstants is docs/model.md's table of the model's constants, read
// from the engine.
func modelConstants(g *Generator) (string, error) {
	tm := engine.DefaultTokenModel()
	p := engine.DefaultProtocol()
	a := engine.DefaultAdaptiveParams()
	mean, cv, err := g.demandMoments()
	if err != nil {
		return "", err
	}
	rows := [][]string{
		{"timestep Δ", fmt.Sprintf("%g ms", engine.StepMs), "`engine.StepMs`"},
		{"replica speeds (ms per reference request), default heterogeneity", speeds(engine.DefaultHeterogeneity), "`engine.DefaultHeterogeneity`"},
		{"replica speeds, high heterogeneity", speeds(engine.HighHeterogeneity), "`engine.HighHeterogeneity`"},
		{"reference request's demand", fmt.Sprintf("%g ms", engine.ReferenceDemand), "`engine.ReferenceDemand`"},
		{"waiting-queue capacity per replica", fmt.Sprint(engine.DefaultQueueCap), "`engine.DefaultQueueCap`"},
		{"base arrival rate", fmt.Sprintf("%g req/s, Poisson", engine.DefaultRate), "`engine.DefaultRate`"},
		{"token demand", fmt.Sprintf("%g ms + %g ms · prompt tokens + %g ms · output tokens", tm.BaseMs, tm.PrefillMs, tm.DecodeMs), "`engine.DefaultTokenModel`"},
		{"prompt tokens", tokenCount(tm.Prompt), "`TokenModel.Prompt`"},
		{"output tokens", tokenCount(tm.Output), "`TokenModel.Output`"},
		{"calibration: mean demand, coefficient of variation", fmt.Sprintf("%.3f ms, %.3f (the first %s requests of seed 1)", mean, cv, thousands(calibrationRequests)), "`engine.DemandMoments`"},
		{"service-time jitter", fmt.Sprintf("U(%g, %g)", 1-engine.DefaultJitter, 1+engine.DefaultJitter), "`engine.DefaultJitter`"},
		{"EWMA weight α (ŝ, r̄)", fmt.Sprint(a.Alpha), "`engine.DefaultAlpha`"},
		{"reward ceiling L", fmt.Sprintf("%g ms", a.Ceiling), "`engine.DefaultCeiling`"},
		{"Adaptive's exploration weight c", fmt.Sprint(a.C), "`engine.DefaultC`"},
		{"SLO", fmt.Sprintf("%g ms", p.SLO), "`engine.DefaultSLO`"},
		{"warm-up, measurement", fmt.Sprintf("%g s, %g s", p.Warmup/1000, p.Measure/1000), "`engine.DefaultWarmup`, `engine.DefaultMeasure`"},
		{"seeds per experiment", fmt.Sprintf("%d (1 to %d)", engine.DefaultSeedCount, engine.DefaultSeedCount), "`engine.DefaultSeedCount`"},
		{"live windows: percentiles, throughput", fmt.Sprintf("the last %d completions, the trailing %g ms", engine.LiveWindowSize, engine.ThroughputWindow), "`engine.LiveWindowSize`, `engine.ThroughputWindow`"},
	}
	return table([]string{"constant", "value", "in the code"}, rows), nil
}

// calibrationRequests is how many requests the demand calibration draws.
const calibrationRequests = 1000000

func (g *Generator) demandMoments() (mean, cv float64, err error) {
	return engine.DemandMoments(engine.DefaultDemand(), 1, calibrationRequests)
}

func demandMean(g *Generator) (string, error) {
	mean, _, err := g.demandMoments()
	return fmt.Sprintf("%.3f ms", mean), err
}

func demandCV(g *Generator) (string, error) {
	_, cv, err := g.demandMoments()
	return fmt.Sprintf("%.3f", cv), err
}

// modelPolicies is the table of built-in policies, from the engine's
// registry.
func modelPolicies(*Generator) (string, error) {
	var rows [][]string
	for _, name := range engine.PolicyNames() {
		spec, err := engine.PolicyByName(name)
		if err != nil {
			return "", err
		}
		var params []string
		for _, p := range spec.Params {
			params = append(params, fmt.Sprintf("%s = %g%s", p.Name, p.Value, unit(p.Unit)))
		}
		if len(params) == 0 {
			params = []string{"—"}
		}
		rows = append(rows, []string{"`" + name + "`", engine.PolicyAbout(name), strings.Join(params, ", ")})
	}
	return table([]string{"name", "rule", "parameters"}, rows), nil
}

func unit(u string) string {
	if u == "" {
		return ""
	}
	return " " + u
}

// modelScenarios is the table of built-in scenarios and their events.
func modelScenarios(*Generator) (string, error) {
	var rows [][]string
	for _, name := range engine.ScenarioNames() {
		scn, err := engine.BuiltinScenario(name, engine.DefaultRate, engine.DefaultHeterogeneity)
		if err != nil {
			return "", err
		}
		var events []string
		for _, e := range scn.Events {
			events = append(events, e.String())
		}
		if len(events) == 0 {
			events = []string{"none"}
		}
		rows = append(rows, []string{"`" + name + "`", engine.ScenarioAbout(name), strings.Join(events, "; ")})
	}
	return table([]string{"name", "what happens", "events"}, rows), nil
}

// servingScenarios is the table of the serving model's built-in
// scenarios: their usual rate and their serving configuration.
func servingScenarios(*Generator) (string, error) {
	var rows [][]string
	for _, name := range engine.ScenarioNames() {
		rate := engine.ScenarioRate(name)
		scn, err := engine.BuiltinScenario(name, rate, engine.DefaultHeterogeneity)
		if err != nil {
			return "", err
		}
		if scn.Serving == nil {
			continue
		}
		rows = append(rows, []string{"`" + name + "`", fmt.Sprintf("%g", rate), engine.ScenarioAbout(name), scn.Serving.String() + "; " + scn.Serving.Workload.String()})
	}
	return table([]string{"name", "req/s", "what happens", "configuration"}, rows), nil
}

// thousands writes n with commas between groups of three digits.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
