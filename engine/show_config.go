package engine

import (
	"fmt"
	"strings"
)

// Displays of configuration: scenarios, workloads, protocols, policies and
// the specs of runs, experiments, sweeps and studies (see show.go).

// headline is a scenario in one line.
func (s Scenario) headline() string {
	arrivals := s.Traffic()
	if s.Arrivals == Poisson {
		arrivals += " Poisson"
	}
	return fmt.Sprintf("scenario %s: %s at %s ms; arrivals: %s; demand: %s; queue cap %d",
		s.Name, s.Cluster(), cutList(floats(s.Speeds), "/"), arrivals, s.Demand.Kind, s.QueueCap)
}

// String describes the scenario: its headline, then its events.
func (s Scenario) String() string {
	var b strings.Builder
	b.WriteString(s.headline())
	for i, e := range s.Events {
		if i == maxShown {
			fmt.Fprintf(&b, "\n  … %d more events", len(s.Events)-maxShown)
			break
		}
		fmt.Fprintf(&b, "\n  at %s", e)
	}
	return b.String()
}

// HTML shows the scenario as a table.
func (s Scenario) HTML() string {
	sh := sheet{title: "scenario " + s.Name}
	sh.add("replicas", s.Cluster())
	sh.add("speeds", cutList(floats(s.Speeds), "/")+" ms per reference request")
	sh.add("queue cap", fmt.Sprintf("%d waiting per replica", s.QueueCap))
	sh.add("arrivals", s.Traffic()+yesNo(s.Arrivals == Poisson, " Poisson", ""))
	sh.add("demand", s.Demand.String())
	sh.add("jitter", yesNo(s.Jitter != 0, fmt.Sprintf("service time × U(%g, %g)", 1-s.Jitter, 1+s.Jitter), "none"))
	if len(s.Events) == 0 {
		sh.add("events", "none")
	} else {
		sh.addGrid("events", []string{"event"}, len(s.Events), func(i int) []string { return []string{s.Events[i].String()} })
	}
	return sh.html()
}

// HTML shows the event as a table.
func (e Event) HTML() string {
	sh := sheet{title: "event " + e.String()}
	sh.add("at", seconds(e.At))
	sh.add("kind", string(e.Kind))
	if e.Kind.affectsReplica() {
		sh.add("replica", fmt.Sprint(e.Replica))
	}
	if e.Kind == EventSetRate || e.Kind == EventScaleRate || e.Kind == EventSlow {
		sh.add("value", fmt.Sprintf("%g", e.Value))
	}
	return sh.html()
}

// String describes the distribution.
func (d DemandModel) String() string {
	switch d.Kind {
	case TokenDemand:
		return "tokens: " + d.Tokens.String()
	case ExponentialDemand:
		return fmt.Sprintf("exponential, mean %g ms", d.Mean)
	case FixedDemand:
		return fmt.Sprintf("deterministic, %g ms", d.Mean)
	case LogNormalDemand:
		return fmt.Sprintf("log-normal, mean %g ms, cv %g", d.Mean, d.CV)
	}
	return fmt.Sprintf("unknown kind %q", string(d.Kind))
}

// HTML shows the distribution as a table.
func (d DemandModel) HTML() string {
	if d.Kind != TokenDemand {
		return sheet{title: "demand: " + d.String()}.html()
	}
	return d.Tokens.sheet("demand: tokens").html()
}

// String gives the demand formula and the token distributions.
func (m TokenModel) String() string {
	return fmt.Sprintf("%g ms + %g ms × prompt tokens + %g ms × output tokens; prompt: %s; output: %s",
		m.BaseMs, m.PrefillMs, m.DecodeMs, m.Prompt, m.Output)
}

// HTML shows the token model as a table.
func (m TokenModel) HTML() string { return m.sheet("token model").html() }

func (m TokenModel) sheet(title string) sheet {
	sh := sheet{title: title}
	sh.add("demand", fmt.Sprintf("%g ms + %g ms × prompt tokens + %g ms × output tokens", m.BaseMs, m.PrefillMs, m.DecodeMs))
	sh.add("prompt tokens", m.Prompt.String())
	sh.add("output tokens", m.Output.String())
	return sh
}

// String describes the token count's distribution.
func (c TokenCount) String() string {
	return fmt.Sprintf("log-normal, median %g, σ %g, clamped to %d–%d", c.Median, c.Sigma, c.Min, c.Max)
}

// HTML shows the distribution as a table.
func (c TokenCount) HTML() string {
	sh := sheet{title: "token count"}
	sh.add("distribution", fmt.Sprintf("round(%g · e^(%g · Z)), Z standard normal", c.Median, c.Sigma))
	sh.add("clamped to", fmt.Sprintf("%d–%d", c.Min, c.Max))
	return sh.html()
}

// String describes the traced request.
func (r TraceRecord) String() string {
	return fmt.Sprintf("request at %g ms: %d prompt + %d output tokens", r.At, r.Prompt, r.Output)
}

// HTML shows the traced request as a table.
func (r TraceRecord) HTML() string {
	sh := sheet{title: "traced request"}
	sh.add("arrival", fmt.Sprintf("%g ms", r.At))
	sh.add("prompt tokens", fmt.Sprint(r.Prompt))
	sh.add("output tokens", fmt.Sprint(r.Output))
	return sh.html()
}

// String describes the protocol.
func (p Protocol) String() string {
	return fmt.Sprintf("%s warm-up + %s measured, SLO %g ms", seconds(p.Warmup), seconds(p.Measure), p.SLO)
}

// HTML shows the protocol as a table.
func (p Protocol) HTML() string {
	sh := sheet{title: "protocol"}
	sh.add("warm-up", seconds(p.Warmup)+" (discarded)")
	sh.add("measured", seconds(p.Measure)+" (the cohort arrives in it; no draining)")
	sh.add("SLO", fmt.Sprintf("%g ms end to end", p.SLO))
	return sh.html()
}

// String lists the parameters.
func (a AdaptiveParams) String() string { return paramsText(a.params()) }

// HTML shows the parameters as a table.
func (a AdaptiveParams) HTML() string {
	sh := sheet{title: "adaptive parameters"}
	sh.addParams(a.params())
	return sh.html()
}

// String is the parameter as people write it: "L = 100 ms".
func (p PolicyParam) String() string {
	s := fmt.Sprintf("%s = %g", p.Name, p.Value)
	if p.Unit != "" {
		s += " " + p.Unit
	}
	return s
}

// HTML shows the parameter and its meaning.
func (p PolicyParam) HTML() string {
	sh := sheet{title: "parameter " + p.Name}
	sh.addParams([]PolicyParam{p})
	return sh.html()
}

func paramsText(ps []PolicyParam) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = p.String()
	}
	return strings.Join(parts, ", ")
}

func (s *sheet) addParams(ps []PolicyParam) {
	s.addGrid("parameters", []string{"parameter", "value", "meaning"}, len(ps), func(i int) []string {
		v := fmt.Sprintf("%g", ps[i].Value)
		if ps[i].Unit != "" {
			v += " " + ps[i].Unit
		}
		return []string{ps[i].Name, v, ps[i].About}
	})
}

// about says what a kind of policy is.
func (k PolicyKind) about() string {
	switch k {
	case BuiltinPolicy:
		return "built-in policy"
	case CostPolicy:
		return "scripted cost function: each eligible replica is scored, the lowest cost wins"
	case PickerPolicy:
		return "scripted picker: one call per decision returns an eligible replica's id"
	case StatefulPolicy:
		return "scripted stateful policy: fresh hooks for every run"
	case "":
		return "policy written in Go"
	}
	return string(k) + " policy"
}

// String names the policy, says what kind it is and lists its parameters.
func (p PolicySpec) String() string {
	name := p.Name
	if name == "" {
		name = "unnamed policy"
	}
	s := name + ": " + p.Kind.about()
	if len(p.Params) > 0 {
		s += "; " + paramsText(p.Params)
	}
	return s
}

// HTML shows the policy as a table.
func (p PolicySpec) HTML() string {
	sh := sheet{title: "policy " + p.Name}
	sh.add("kind", p.Kind.about())
	// The registry describes a built-in by its name, which a built-in with
	// other parameters than the defaults does not have.
	if about := PolicyAbout(p.Name); about != "" && p.Kind == BuiltinPolicy {
		sh.add("what it does", about)
	}
	if len(p.Params) > 0 {
		sh.addParams(p.Params)
	}
	return sh.html()
}

// String says what a policy gets when a run starts.
func (e PolicyEnv) String() string {
	return fmt.Sprintf("policy environment: %d replicas, %s", e.Replicas,
		yesNo(e.Rand != nil, "the policy's own random stream", "no random stream"))
}

// HTML shows the environment as a table.
func (e PolicyEnv) HTML() string { return sheet{title: e.String()}.html() }

// protocolText describes a protocol where zero means the default.
func protocolText(p Protocol) string {
	if p == (Protocol{}) {
		return "default: " + DefaultProtocol().String()
	}
	return p.String()
}

// defaultSeedsText describes a seed list where nil means 1..10.
func defaultSeedsText(seeds []uint64) string {
	if seeds == nil {
		return "default: " + seedsText(DefaultSeeds(DefaultSeedCount))
	}
	return seedsText(seeds)
}

func policyNames(ps []PolicySpec) string {
	if len(ps) == 0 {
		return "none"
	}
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.Name
	}
	return cutList(names, ", ")
}

func (e Experiment) sheet() sheet {
	sh := sheet{title: "experiment on scenario " + e.Scenario.Name}
	sh.add("scenario", e.Scenario.headline())
	sh.add("policies", policyNames(e.Policies))
	sh.add("seeds", defaultSeedsText(e.Seeds))
	sh.add("protocol", protocolText(e.Protocol))
	sh.add("workers", workersText(e.Workers))
	return sh
}

// String describes the experiment.
func (e Experiment) String() string { return e.sheet().text() }

// HTML shows the experiment as a table.
func (e Experiment) HTML() string { return e.sheet().html() }

func (r RunSpec) sheet() sheet {
	sh := sheet{title: fmt.Sprintf("run of %s on %s, seed %d", r.Policy.Name, r.Scenario.Name, r.Seed)}
	sh.add("scenario", r.Scenario.headline())
	sh.add("policy", r.Policy.String())
	sh.add("protocol", r.Protocol.String())
	sh.add("timeline", yesNo(r.SampleEvery > 0, fmt.Sprintf("sampled every %g ms", r.SampleEvery), "none"))
	sh.add("decisions", yesNo(r.OnDecision != nil, "each reported to a callback", "not reported"))
	sh.add("latencies", yesNo(r.SummaryOnly, "summarised, then dropped", "kept"))
	return sh
}

// String describes the run.
func (r RunSpec) String() string { return r.sheet().text() }

// HTML shows the run as a table.
func (r RunSpec) HTML() string { return r.sheet().html() }

func (o SimOptions) sheet() sheet {
	sh := sheet{title: fmt.Sprintf("simulator options, seed %d", o.Seed)}
	measured := "not measured"
	if o.Measure != nil {
		measured = o.Measure.String()
	}
	sh.add("measured", measured)
	sh.add("timeline", yesNo(o.SampleEvery > 0, fmt.Sprintf("sampled every %g ms", o.SampleEvery), "none"))
	sh.add("decisions", yesNo(o.OnDecision != nil, "each reported to a callback", "not reported"))
	return sh
}

// String describes the options.
func (o SimOptions) String() string { return o.sheet().text() }

// HTML shows the options as a table.
func (o SimOptions) HTML() string { return o.sheet().html() }

func (sw Sweep) sheet() sheet {
	sh := sheet{title: "sweep over " + yesNo(sw.XLabel != "", sw.XLabel, "x")}
	sh.add("policies", policyNames(sw.Policies))
	sh.add("seeds", defaultSeedsText(sw.Seeds))
	sh.add("protocol", protocolText(sw.Protocol))
	sh.add("workers", workersText(sw.Workers))
	sh.addGrid("points", []string{"x", "point"}, len(sw.Points), func(i int) []string {
		return []string{fmt.Sprintf("%g", sw.Points[i].X), sw.Points[i].Label}
	})
	return sh
}

// String describes the sweep.
func (sw Sweep) String() string { return sw.sheet().text() }

// HTML shows the sweep as a table.
func (sw Sweep) HTML() string { return sw.sheet().html() }

// String describes the point.
func (p SweepPoint) String() string {
	return fmt.Sprintf("%s (x = %g): %s", p.Label, p.X, p.Scenario.headline())
}

// HTML shows the point as a table.
func (p SweepPoint) HTML() string {
	sh := sheet{title: "sweep point " + p.Label}
	sh.add("x", fmt.Sprintf("%g", p.X))
	sh.add("scenario", p.Scenario.headline())
	return sh.html()
}

func (c StudyConfig) sheet() sheet {
	sh := sheet{title: "study " + c.Name}
	sh.add("rates", cutList(floats(c.Rates), ", ")+" req/s")
	sh.add("heterogeneity", cutList(c.Heterogeneity, ", "))
	sh.add("scenarios", cutList(c.Scenarios, ", "))
	sh.add("conditions", fmt.Sprint(len(c.Rates)*len(c.Heterogeneity)*len(c.Scenarios)))
	sh.add("weights", cutList(floats(c.Weights), ", "))
	sh.add("development seeds", seedsText(c.DevelopmentSeeds))
	sh.add("validation seeds", seedsText(c.ValidationSeeds))
	sh.add("policies", cutList(c.Policies, ", "))
	sh.add("protocol", c.Protocol.String())
	return sh
}

// String describes the study.
func (c StudyConfig) String() string { return c.sheet().text() }

// HTML shows the study as a table.
func (c StudyConfig) HTML() string { return c.sheet().html() }

// HTML shows the condition as a table.
func (c Condition) HTML() string {
	sh := sheet{title: "condition " + c.String()}
	sh.add("scenario", c.Scenario)
	sh.add("heterogeneity", c.Heterogeneity)
	sh.add("rate", fmt.Sprintf("%g req/s", c.Rate))
	return sh.html()
}
