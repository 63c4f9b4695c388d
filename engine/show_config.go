package engine

import (
	"fmt"
	"strings"

	"github.com/routelab/routelab/internal/sheet"
)

// Displays of configuration: scenarios, workloads, protocols, policies and
// the specs of runs, experiments, sweeps and studies (see show.go).

// Headline is the scenario in one line.
func (s Scenario) Headline() string {
	arrivals := s.Traffic()
	if s.Arrivals == Poisson {
		arrivals += " Poisson"
	}
	return fmt.Sprintf("scenario %s: %s at %s ms; arrivals: %s; demand: %s; queue cap %d",
		s.Name, s.Cluster(), sheet.CutList(sheet.Floats(s.Speeds), "/"), arrivals, s.Demand.Kind, s.QueueCap)
}

// String describes the scenario: its headline, then its events.
func (s Scenario) String() string {
	var b strings.Builder
	b.WriteString(s.Headline())
	for i, e := range s.Events {
		if i == sheet.MaxShown {
			fmt.Fprintf(&b, "\n  … %d more events", len(s.Events)-sheet.MaxShown)
			break
		}
		fmt.Fprintf(&b, "\n  at %s", e)
	}
	return b.String()
}

// HTML shows the scenario as a table.
func (s Scenario) HTML() string {
	sh := sheet.Sheet{Title: "scenario " + s.Name}
	sh.Add("replicas", s.Cluster())
	sh.Add("speeds", sheet.CutList(sheet.Floats(s.Speeds), "/")+" ms per reference request")
	sh.Add("queue cap", fmt.Sprintf("%d waiting per replica", s.QueueCap))
	sh.Add("arrivals", s.Traffic()+sheet.YesNo(s.Arrivals == Poisson, " Poisson", ""))
	sh.Add("demand", s.Demand.String())
	sh.Add("jitter", sheet.YesNo(s.Jitter != 0, fmt.Sprintf("service time × U(%g, %g)", 1-s.Jitter, 1+s.Jitter), "none"))
	if len(s.Events) == 0 {
		sh.Add("events", "none")
	} else {
		sh.AddGrid("events", []string{"event"}, len(s.Events), func(i int) []string { return []string{s.Events[i].String()} })
	}
	return sh.HTML()
}

// HTML shows the event as a table.
func (e Event) HTML() string {
	sh := sheet.Sheet{Title: "event " + e.String()}
	sh.Add("at", sheet.Seconds(e.At))
	sh.Add("kind", string(e.Kind))
	if e.Kind.affectsReplica() {
		sh.Add("replica", fmt.Sprint(e.Replica))
	}
	if e.Kind == EventSetRate || e.Kind == EventScaleRate || e.Kind == EventSlow {
		sh.Add("value", fmt.Sprintf("%g", e.Value))
	}
	return sh.HTML()
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
		return sheet.Sheet{Title: "demand: " + d.String()}.HTML()
	}
	return d.Tokens.sheet("demand: tokens").HTML()
}

// String gives the demand formula and the token distributions.
func (m TokenModel) String() string {
	return fmt.Sprintf("%g ms + %g ms × prompt tokens + %g ms × output tokens; prompt: %s; output: %s",
		m.BaseMs, m.PrefillMs, m.DecodeMs, m.Prompt, m.Output)
}

// HTML shows the token model as a table.
func (m TokenModel) HTML() string { return m.sheet("token model").HTML() }

func (m TokenModel) sheet(title string) sheet.Sheet {
	sh := sheet.Sheet{Title: title}
	sh.Add("demand", fmt.Sprintf("%g ms + %g ms × prompt tokens + %g ms × output tokens", m.BaseMs, m.PrefillMs, m.DecodeMs))
	sh.Add("prompt tokens", m.Prompt.String())
	sh.Add("output tokens", m.Output.String())
	return sh
}

// String describes the token count's distribution.
func (c TokenCount) String() string {
	return fmt.Sprintf("log-normal, median %g, σ %g, clamped to %d–%d", c.Median, c.Sigma, c.Min, c.Max)
}

// HTML shows the distribution as a table.
func (c TokenCount) HTML() string {
	sh := sheet.Sheet{Title: "token count"}
	sh.Add("distribution", fmt.Sprintf("round(%g · e^(%g · Z)), Z standard normal", c.Median, c.Sigma))
	sh.Add("clamped to", fmt.Sprintf("%d–%d", c.Min, c.Max))
	return sh.HTML()
}

// String describes the traced request.
func (r TraceRecord) String() string {
	return fmt.Sprintf("request at %g ms: %d prompt + %d output tokens", r.At, r.Prompt, r.Output)
}

// HTML shows the traced request as a table.
func (r TraceRecord) HTML() string {
	sh := sheet.Sheet{Title: "traced request"}
	sh.Add("arrival", fmt.Sprintf("%g ms", r.At))
	sh.Add("prompt tokens", fmt.Sprint(r.Prompt))
	sh.Add("output tokens", fmt.Sprint(r.Output))
	return sh.HTML()
}

// String describes the protocol.
func (p Protocol) String() string {
	return fmt.Sprintf("%s warm-up + %s measured, SLO %g ms", sheet.Seconds(p.Warmup), sheet.Seconds(p.Measure), p.SLO)
}

// HTML shows the protocol as a table.
func (p Protocol) HTML() string {
	sh := sheet.Sheet{Title: "protocol"}
	sh.Add("warm-up", sheet.Seconds(p.Warmup)+" (discarded)")
	sh.Add("measured", sheet.Seconds(p.Measure)+" (the cohort arrives in it; no draining)")
	sh.Add("SLO", fmt.Sprintf("%g ms end to end", p.SLO))
	return sh.HTML()
}

// String lists the parameters.
func (a AdaptiveParams) String() string { return paramsText(a.params()) }

// HTML shows the parameters as a table.
func (a AdaptiveParams) HTML() string {
	sh := sheet.Sheet{Title: "adaptive parameters"}
	addParams(&sh, a.params())
	return sh.HTML()
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
	sh := sheet.Sheet{Title: "parameter " + p.Name}
	addParams(&sh, []PolicyParam{p})
	return sh.HTML()
}

func paramsText(ps []PolicyParam) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = p.String()
	}
	return strings.Join(parts, ", ")
}

func addParams(s *sheet.Sheet, ps []PolicyParam) {
	s.AddGrid("parameters", []string{"parameter", "value", "meaning"}, len(ps), func(i int) []string {
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
	sh := sheet.Sheet{Title: "policy " + p.Name}
	sh.Add("kind", p.Kind.about())
	// The registry describes a built-in by its name, which a built-in with
	// other parameters than the defaults does not have.
	if about := PolicyAbout(p.Name); about != "" && p.Kind == BuiltinPolicy {
		sh.Add("what it does", about)
	}
	if len(p.Params) > 0 {
		addParams(&sh, p.Params)
	}
	return sh.HTML()
}

// String says what a policy gets when a run starts.
func (e PolicyEnv) String() string {
	return fmt.Sprintf("policy environment: %d replicas, %s", e.Replicas,
		sheet.YesNo(e.Rand != nil, "the policy's own random stream", "no random stream"))
}

// HTML shows the environment as a table.
func (e PolicyEnv) HTML() string { return sheet.Sheet{Title: e.String()}.HTML() }

func (r RunSpec) sheet() sheet.Sheet {
	sh := sheet.Sheet{Title: fmt.Sprintf("run of %s on %s, seed %d", r.Policy.Name, r.Scenario.Name, r.Seed)}
	sh.Add("scenario", r.Scenario.Headline())
	sh.Add("policy", r.Policy.String())
	sh.Add("protocol", r.Protocol.String())
	sh.Add("timeline", sheet.YesNo(r.SampleEvery > 0, fmt.Sprintf("sampled every %g ms", r.SampleEvery), "none"))
	sh.Add("decisions", sheet.YesNo(r.OnDecision != nil, "each reported to a callback", "not reported"))
	sh.Add("latencies", sheet.YesNo(r.SummaryOnly, "summarised, then dropped", "kept"))
	return sh
}

// String describes the run.
func (r RunSpec) String() string { return r.sheet().Text() }

// HTML shows the run as a table.
func (r RunSpec) HTML() string { return r.sheet().HTML() }

func (o SimOptions) sheet() sheet.Sheet {
	sh := sheet.Sheet{Title: fmt.Sprintf("simulator options, seed %d", o.Seed)}
	measured := "not measured"
	if o.Measure != nil {
		measured = o.Measure.String()
	}
	sh.Add("measured", measured)
	sh.Add("timeline", sheet.YesNo(o.SampleEvery > 0, fmt.Sprintf("sampled every %g ms", o.SampleEvery), "none"))
	sh.Add("decisions", sheet.YesNo(o.OnDecision != nil, "each reported to a callback", "not reported"))
	return sh
}

// String describes the options.
func (o SimOptions) String() string { return o.sheet().Text() }

// HTML shows the options as a table.
func (o SimOptions) HTML() string { return o.sheet().HTML() }

func (r Runner) sheet() sheet.Sheet {
	sh := sheet.Sheet{Title: "runner"}
	sh.Add("prepared token models", fmt.Sprint(len(r.tables)))
	sh.Add("buffers", sheet.YesNo(r.buffers.sim != nil, "held from the last summary-only run", "none held"))
	return sh
}

// String describes the runner: what it has prepared and holds.
func (r Runner) String() string { return r.sheet().Text() }

// HTML shows the runner as a table.
func (r Runner) HTML() string { return r.sheet().HTML() }

// String is the record in one line: "p2c (classic): power of two choices
// by outstanding requests; lab.P2C; colour 6, cross, dash-dot-dot".
func (e PolicyEntry) String() string {
	return fmt.Sprintf("%s (%s): %s; lab.%s; %s", e.Name, e.Family, e.About, e.LabFunc, e.Style)
}

// HTML shows the record as a table.
func (e PolicyEntry) HTML() string {
	sh := sheet.Sheet{Title: "built-in policy " + e.Name}
	sh.Add("family", e.Family)
	sh.Add("rule", e.About)
	sh.Add("lab function", "lab."+e.LabFunc)
	sh.Add("figure style", e.Style.String())
	return sh.HTML()
}

// String is the record on one line.
func (e ScenarioEntry) String() string {
	return fmt.Sprintf("%s (%s): %s; %g req/s; lab.%s", e.Name, e.Family, e.About, e.Rate, e.LabFunc)
}

// HTML shows the record as a table.
func (e ScenarioEntry) HTML() string {
	sh := sheet.Sheet{Title: "built-in scenario " + e.Name}
	sh.Add("family", e.Family)
	sh.Add("what it shows", e.About)
	sh.Add("usual rate", fmt.Sprintf("%g req/s", e.Rate))
	sh.Add("lab function", "lab."+e.LabFunc)
	return sh.HTML()
}

// String names the colour and, where fixed, the marker and the dash.
func (s PolicyStyle) String() string {
	if s.Colour == 0 {
		return "no style"
	}
	out := fmt.Sprintf("colour %d", s.Colour)
	if s.Marker != "" || s.Dash != "" {
		out += ", " + s.Marker + ", " + s.Dash
	}
	return out
}

// HTML shows the style as a table.
func (s PolicyStyle) HTML() string {
	sh := sheet.Sheet{Title: "figure style"}
	sh.Add("colour", fmt.Sprintf("%d of the figures' palette", s.Colour))
	sh.Add("marker", sheet.YesNo(s.Marker != "", s.Marker, "the figure's choice"))
	sh.Add("dash", sheet.YesNo(s.Dash != "", s.Dash, "the figure's choice"))
	return sh.HTML()
}
