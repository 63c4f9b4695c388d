package engine

import "fmt"

// Displays of the serving model's configuration and figures (see show.go).

func (c ServingConfig) sheet() sheet {
	sh := sheet{title: "serving model"}
	sh.add("batch", fmt.Sprintf("up to %d running, token budget %s%s", c.MaxBatch,
		yesNo(c.TokenBudget > 0, fmt.Sprint(c.TokenBudget), "none"), yesNo(c.ChunkedPrefill, ", chunked prefill", "")))
	sh.add("iteration overhead", fmt.Sprintf("%g ms", c.OverheadMs))
	sh.add("queue", string(c.Queue))
	sh.add("KV cache", yesNo(c.KVBlocks > 0, fmt.Sprintf("%d blocks of %d tokens", c.KVBlocks, c.blockTokens()), "no limit"))
	sh.add("prefix cache", yesNo(c.PrefixCacheBlocks > 0, fmt.Sprintf("%d blocks", c.PrefixCacheBlocks), "none"))
	sh.add("workload", c.Workload.String())
	sh.add("signals", c.Signals.String())
	sh.add("SLO", c.SLO.String())
	return sh
}

// String describes the configuration.
func (c ServingConfig) String() string { return c.sheet().text() }

// HTML shows the configuration as a table.
func (c ServingConfig) HTML() string { return c.sheet().html() }

// String describes the serving attributes in one line.
func (w ServingWorkload) String() string {
	s := "no shared prefixes"
	if w.PrefixGroups > 0 {
		s = fmt.Sprintf("%d system prompts of %d tokens, Zipf s = %g", w.PrefixGroups, w.SystemPromptTokens, w.ZipfS)
	}
	if w.Sessions > 0 {
		s += fmt.Sprintf("; %d sessions of %g turns on average, context ≤ %d", w.Sessions, w.MeanTurns, w.MaxContextTokens)
	}
	if w.CriticalShare > 0 || w.SheddableShare > 0 {
		s += fmt.Sprintf("; %g critical, %g sheddable", w.CriticalShare, w.SheddableShare)
	}
	if len(w.Mix) > 0 {
		s += fmt.Sprintf("; a mix of %d classes", len(w.Mix))
	}
	return s
}

// HTML shows the attributes as a table.
func (w ServingWorkload) HTML() string {
	sh := sheet{title: "serving workload"}
	sh.add("requests", w.String())
	for _, c := range w.Mix {
		sh.add("class "+c.Name, c.String())
	}
	return sh.html()
}

// String describes the class.
func (c RequestClass) String() string {
	return fmt.Sprintf("%s (%g): prompt %s; output %s", c.Name, c.Share, c.Prompt, c.Output)
}

// String describes how fresh the router's signals are.
func (c SignalConfig) String() string {
	s := "fresh"
	if c.RefreshMs > 0 {
		s = fmt.Sprintf("scraped every %g ms", c.RefreshMs)
	}
	s += ", " + string(c.index()) + " prefix index"
	if c.Probes > 0 {
		s += fmt.Sprintf(", %d probes answering after %g ms", c.Probes, c.ProbeDelayMs)
	}
	return s
}

// HTML shows the signal configuration as a table.
func (c SignalConfig) HTML() string {
	sh := sheet{title: "router signals"}
	sh.add("signals", c.String())
	return sh.html()
}

// index is the prefix index, approximate when unset.
func (c SignalConfig) index() PrefixIndex {
	if c.PrefixIndex == "" {
		return ApproximateIndex
	}
	return c.PrefixIndex
}

// String lists the targets set.
func (s ServingSLO) String() string {
	out := ""
	for _, t := range []struct {
		name string
		v    float64
	}{{"TTFT", s.TTFTMs}, {"mean ITL", s.ITLMs}, {"ITL p99", s.ITLP99Ms}, {"end to end", s.E2EMs}} {
		if t.v > 0 {
			out += fmt.Sprintf("%s%s ≤ %g ms", yesNo(out == "", "", ", "), t.name, t.v)
		}
	}
	return yesNo(out == "", "no targets", out)
}

// HTML shows the targets as a table.
func (s ServingSLO) HTML() string {
	sh := sheet{title: "serving SLO"}
	sh.add("targets", s.String())
	return sh.html()
}

func (s ServingSummary) sheet() sheet {
	sh := sheet{title: "serving figures"}
	sh.add("TTFT", fmt.Sprintf("p50 %s ms, p99 %s ms", Dash("%.1f", s.TTFT.P50), Dash("%.1f", s.TTFT.P99)))
	sh.add("ITL", fmt.Sprintf("mean %s ms, p99 %s ms", Dash("%.1f", s.ITL.Mean), Dash("%.1f", s.ITL.P99)))
	sh.add("serving SLO", fmt.Sprintf("%d on time, attainment %s %%", s.OnTime, Dash("%.2f", 100*s.Attainment)))
	sh.add("preemptions", fmt.Sprintf("%d (%d requests)", s.Preemptions, s.Preempted))
	sh.add("prefix cache", fmt.Sprintf("%d of %d shared-prefix tokens, %s %%", s.CachedTokens, s.PrefixTokens, Dash("%.1f", 100*s.HitRate)))
	sh.add("mean batch", Dash("%.2f", s.MeanBatch))
	sh.add("mean KV use", Dash("%.3f", s.MeanKVUtil))
	return sh
}

// String describes the figures.
func (s ServingSummary) String() string { return s.sheet().text() }

// HTML shows the figures as a table.
func (s ServingSummary) HTML() string { return s.sheet().html() }

// String describes the replica's figures in one line.
func (r ReplicaServing) String() string {
	return fmt.Sprintf("mean batch %s, KV use %s, prefix hits %s %%, %d preemptions",
		Dash("%.2f", r.MeanBatch), Dash("%.3f", r.MeanKVUtil), Dash("%.1f", 100*r.HitRate), r.Preemptions)
}

func (a ServingAggregate) sheet() sheet {
	sh := sheet{title: "serving figures, medians across seeds"}
	sh.add("TTFT", fmt.Sprintf("p50 %s ms, p99 %s ms", Dash("%.1f", a.MedianTTFTP50), Dash("%.1f", a.MedianTTFTP99)))
	sh.add("ITL", fmt.Sprintf("mean %s ms, p99 %s ms", Dash("%.1f", a.MedianITLMean), Dash("%.1f", a.MedianITLP99)))
	sh.add("serving SLO", fmt.Sprintf("attainment %s %% (mean %s %%)", Dash("%.2f", 100*a.MedianAttainment), Dash("%.2f", 100*a.MeanAttainment)))
	sh.add("prefix hits", Dash("%.1f", 100*a.MedianHitRate)+" %")
	sh.add("preemptions", Dash("%.0f", a.MedianPreemptions))
	sh.add("mean batch", Dash("%.2f", a.MedianBatch))
	sh.add("mean KV use", Dash("%.3f", a.MedianKVUtil))
	return sh
}

// String describes the aggregate.
func (a ServingAggregate) String() string { return a.sheet().text() }

// HTML shows the aggregate as a table.
func (a ServingAggregate) HTML() string { return a.sheet().html() }

func (r RequestInfo) sheet() sheet {
	sh := sheet{title: fmt.Sprintf("request %d", r.Seq)}
	sh.add("arrival", fmt.Sprintf("%g ms", r.ArrivalMs))
	sh.add("prompt", fmt.Sprintf("%d tokens", r.PromptTokens))
	sh.add("prefix", yesNo(r.PrefixGroup > 0, fmt.Sprintf("group %d, %d tokens", r.PrefixGroup, r.PrefixTokens), "none"))
	sh.add("session", yesNo(r.Session > 0, fmt.Sprintf("%d, %d earlier tokens", r.Session, r.SessionTokens), "none"))
	sh.add("priority", string(r.Priority))
	if r.Rerouted {
		sh.add("rerouted", "from a failed replica")
	}
	return sh
}

// String describes the request.
func (r RequestInfo) String() string { return r.sheet().text() }

// HTML shows the request as a table.
func (r RequestInfo) HTML() string { return r.sheet().html() }

func (c Completion) sheet() sheet {
	sh := sheet{title: fmt.Sprintf("request %d completed at replica %d", c.Request.Seq, c.Replica)}
	sh.add("latency", fmt.Sprintf("%s ms end to end, %s ms in service", Dash("%.1f", c.LatencyMs), Dash("%.1f", c.ServiceMs)))
	sh.add("tokens", fmt.Sprintf("TTFT %s ms, ITL %s ms (p99 %s ms), %d output tokens",
		Dash("%.1f", c.TTFTMs), Dash("%.1f", c.ITLMs), Dash("%.1f", c.ITLP99Ms), c.OutputTokens))
	sh.add("prefix cache", fmt.Sprintf("%d prompt tokens served", c.CachedTokens))
	sh.add("preemptions", fmt.Sprint(c.Preemptions))
	return sh
}

// String describes the completion.
func (c Completion) String() string { return c.sheet().text() }

// HTML shows the completion as a table.
func (c Completion) HTML() string { return c.sheet().html() }

func (p *switching) String() string {
	return fmt.Sprintf("switching policy, %d of %d switches made", p.next, len(p.switches))
}

// HTML shows the class as a table.
func (c RequestClass) HTML() string {
	sh := sheet{title: "request class " + c.Name}
	sh.add("share", fmt.Sprintf("%g", c.Share))
	sh.add("prompt tokens", c.Prompt.String())
	sh.add("output tokens", c.Output.String())
	return sh.html()
}

// HTML shows the replica's figures as a table.
func (r ReplicaServing) HTML() string {
	sh := sheet{title: "replica serving figures"}
	sh.add("figures", r.String())
	return sh.html()
}

// String is the scorer and its weight: queue×2.
func (s Scorer) String() string {
	if s.Name == "" {
		return "scorer with no name"
	}
	return fmt.Sprintf("%s×%g", s.Name, s.Weight)
}

// HTML shows the scorer as a table.
func (s Scorer) HTML() string {
	sh := sheet{title: "scorer " + s.Name}
	sh.add("weight", fmt.Sprintf("%g", s.Weight))
	return sh.html()
}

// String says what the function is, never its address.
func (f ScoreFunc) String() string { return "a scorer's function of one run" }

func (p ScoringProfile) sheet() sheet {
	sh := sheet{title: "scoring profile " + p.Name}
	scorers := make([]string, len(p.Scorers))
	for i, s := range p.Scorers {
		scorers[i] = s.String()
	}
	sh.add("scorers", cutList(scorers, " + "))
	sh.add("picker", "the largest weighted sum, ties drawn at random")
	sh.add("filter", yesNo(p.Affinity > 0, fmt.Sprintf("prefix score ≥ %g, skipped with probability %g", p.Affinity, p.Explore), "none"))
	sh.add("admission", yesNo(p.Shed, "sheddable requests refused with probability min(sat⁵·300, 1)", "every request"))
	return sh
}

// String describes the profile.
func (p ScoringProfile) String() string { return p.sheet().text() }

// HTML shows the profile as a table.
func (p ScoringProfile) HTML() string { return p.sheet().html() }

// HTML shows what the function is.
func (f ScoreFunc) HTML() string { return sheet{title: f.String()}.html() }
