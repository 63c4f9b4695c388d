package engine

import (
	"fmt"
	"strings"

	"github.com/routelab/routelab/internal/sheet"
)

// Displays of the serving model's configuration and results: one line as
// text, a table as HTML.

// String describes the configuration in one line.
func (c ServingConfig) String() string {
	return fmt.Sprintf("B = %d, %s; %s; %s", c.MaxBatch, c.budgetText(), c.kvText(), c.Signals)
}

func (c ServingConfig) budgetText() string {
	s := "no token budget"
	if c.TokenBudget > 0 {
		s = fmt.Sprintf("%d tokens per iteration", c.TokenBudget)
	}
	if c.ChunkedPrefill {
		s += ", chunked prefill"
	}
	return s
}

func (c ServingConfig) kvText() string {
	kv := "no KV limit"
	if c.KVBlocks > 0 {
		kv = fmt.Sprintf("%d KV blocks of %d tokens", c.KVBlocks, c.blockTokens())
	}
	if c.PrefixCacheBlocks > 0 {
		return kv + fmt.Sprintf(", a prefix cache of %d blocks", c.PrefixCacheBlocks)
	}
	return kv + ", no prefix cache"
}

// HTML shows the configuration as a table.
func (c ServingConfig) HTML() string {
	sh := sheet.Sheet{Title: "serving model"}
	sh.Add("batch", fmt.Sprintf("at most %d requests, %s", c.MaxBatch, c.budgetText()))
	sh.Add("shared iteration overhead", fmt.Sprintf("%g ms at reference speed", c.OverheadMs))
	order := c.Queue
	if order == "" {
		order = FIFOQueue
	}
	sh.Add("queue", string(order))
	sh.Add("caches", c.kvText())
	sh.Add("workload", c.Workload.String())
	sh.Add("signals", c.Signals.String())
	sh.Add("SLO", c.SLO.String())
	return sh.HTML()
}

// String describes the serving attributes of the requests.
func (w ServingWorkload) String() string {
	var parts []string
	if w.PrefixGroups > 0 {
		parts = append(parts, fmt.Sprintf("%d system prompts of %d tokens (Zipf s = %g)", w.PrefixGroups, w.SystemPromptTokens, w.ZipfS))
	}
	if w.Sessions > 0 {
		parts = append(parts, fmt.Sprintf("%d open sessions of %g turns on average, up to %d tokens", w.Sessions, w.MeanTurns, w.MaxContextTokens))
	}
	if w.CriticalShare > 0 || w.SheddableShare > 0 {
		parts = append(parts, fmt.Sprintf("%g%% critical, %g%% sheddable", 100*w.CriticalShare, 100*w.SheddableShare))
	}
	for _, c := range w.Mix {
		parts = append(parts, c.String())
	}
	if w.HotPrefix != (HotPrefix{}) {
		parts = append(parts, w.HotPrefix.String())
	}
	if len(parts) == 0 {
		return "no shared prefixes, sessions, priorities or mix"
	}
	return strings.Join(parts, "; ")
}

// HTML shows the workload as a table.
func (w ServingWorkload) HTML() string {
	return sheet.Sheet{Title: "serving workload", Rows: []sheet.Row{{Label: "requests", Value: w.String()}}}.HTML()
}

// String describes the class.
func (c RequestClass) String() string {
	return fmt.Sprintf("%s %g%%: prompt %s; output %s", c.Name, 100*c.Share, c.Prompt, c.Output)
}

// HTML shows the class as a table.
func (c RequestClass) HTML() string {
	sh := sheet.Sheet{Title: "request class " + c.Name}
	sh.Add("share", fmt.Sprintf("%g%%", 100*c.Share))
	sh.Add("prompt tokens", c.Prompt.String())
	sh.Add("output tokens", c.Output.String())
	return sh.HTML()
}

// String describes the hot prefix.
func (h HotPrefix) String() string {
	if h == (HotPrefix{}) {
		return "no hot prefix"
	}
	return fmt.Sprintf("%g%% of arrivals from %g to %g ms on a new system prompt", 100*h.Share, h.FromMs, h.ToMs)
}

// HTML shows the hot prefix as a table.
func (h HotPrefix) HTML() string {
	return sheet.Sheet{Title: "hot prefix", Rows: []sheet.Row{{Label: "window", Value: h.String()}}}.HTML()
}

// String describes how fresh the router's signals are.
func (g SignalConfig) String() string {
	s := "fresh signals"
	if g.RefreshMs > 0 {
		s = fmt.Sprintf("signals scraped every %g ms", g.RefreshMs)
	}
	index := g.PrefixIndex
	if index == "" {
		index = ApproximateIndex
	}
	s += ", " + string(index) + " prefix index"
	if g.Probes > 0 {
		s += fmt.Sprintf(", %d probes answered after %g ms", g.Probes, g.ProbeDelayMs)
	}
	return s
}

// HTML shows the signals as a table.
func (g SignalConfig) HTML() string {
	return sheet.Sheet{Title: "router signals", Rows: []sheet.Row{{Label: "signals", Value: g.String()}}}.HTML()
}

// String lists the targets.
func (o ServingSLO) String() string {
	var parts []string
	for _, t := range []struct {
		name string
		v    float64
	}{{"TTFT", o.TTFTMs}, {"ITL", o.ITLMs}, {"ITL p99", o.ITLP99Ms}, {"end to end", o.E2EMs}} {
		if t.v > 0 {
			parts = append(parts, fmt.Sprintf("%s ≤ %g ms", t.name, t.v))
		}
	}
	if len(parts) == 0 {
		return "no serving targets"
	}
	return strings.Join(parts, ", ")
}

// HTML shows the targets as a table.
func (o ServingSLO) HTML() string {
	return sheet.Sheet{Title: "serving SLO", Rows: []sheet.Row{{Label: "targets", Value: o.String()}}}.HTML()
}

// String summarises the serving figures in one line.
func (s ServingSummary) String() string {
	return fmt.Sprintf("TTFT p99 %s ms, ITL p99 %s ms, serving attainment %s, prefix hits %s, %d preemptions, mean batch %s",
		sheet.Dash("%.1f", s.TTFT.P99), sheet.Dash("%.1f", s.ITL.P99), sheet.Dash("%.2f%%", 100*s.Attainment),
		sheet.Dash("%.1f%%", 100*s.HitRate), s.Preemptions, sheet.Dash("%.1f", s.MeanBatch))
}

// HTML shows the serving figures as a table.
func (s ServingSummary) HTML() string {
	sh := sheet.Sheet{Title: "serving figures"}
	sh.Add("TTFT", s.TTFT.String())
	sh.Add("ITL (each request's mean)", s.ITL.String())
	sh.Add("ITL (each request's p99)", s.ITLTail.String())
	sh.Add("serving on time", fmt.Sprintf("%d (%s of cohort arrivals)", s.OnTime, sheet.Dash("%.2f%%", 100*s.Attainment)))
	sh.Add("preemptions", fmt.Sprintf("%d, of %d requests", s.Preemptions, s.Preempted))
	sh.Add("prefix cache", fmt.Sprintf("%d of %d prefix tokens served (%s)", s.CachedTokens, s.PrefixTokens, sheet.Dash("%.1f%%", 100*s.HitRate)))
	sh.Add("mean batch, KV use", fmt.Sprintf("%s requests, %s", sheet.Dash("%.1f", s.MeanBatch), sheet.Dash("%.1f%%", 100*s.MeanKVUtil)))
	return sh.HTML()
}

// String summarises the replica's serving figures.
func (r ReplicaServing) String() string {
	return fmt.Sprintf("mean batch %s, KV %s, prefix hits %s, %d preemptions",
		sheet.Dash("%.1f", r.MeanBatch), sheet.Dash("%.1f%%", 100*r.MeanKVUtil), sheet.Dash("%.1f%%", 100*r.HitRate), r.Preemptions)
}

// HTML shows the replica's serving figures as a table.
func (r ReplicaServing) HTML() string {
	return sheet.Sheet{Title: "replica serving figures", Rows: []sheet.Row{{Label: "measured", Value: r.String()}}}.HTML()
}

// String describes the request as the router sees it.
func (r RequestInfo) String() string {
	s := fmt.Sprintf("request %d at %.1f ms: %d prompt tokens", r.Seq, r.ArrivalMs, r.PromptTokens)
	if r.PrefixGroup != 0 {
		s += fmt.Sprintf(", system prompt %d (%d tokens)", r.PrefixGroup, r.PrefixTokens)
	}
	if r.Session != 0 {
		s += fmt.Sprintf(", session %d (%d tokens carried)", r.Session, r.SessionTokens)
	}
	if r.Priority != "" {
		s += ", " + string(r.Priority)
	}
	if r.Rerouted {
		s += ", rerouted"
	}
	return s
}

// HTML shows the request as a table.
func (r RequestInfo) HTML() string {
	return sheet.Sheet{Title: "request", Rows: []sheet.Row{{Label: "seen by the router", Value: r.String()}}}.HTML()
}

// String describes the completion.
func (c Completion) String() string {
	return fmt.Sprintf("request %d on replica %d: %d tokens, latency %.1f ms, TTFT %.1f ms, ITL %s ms",
		c.Request.Seq, c.Replica, c.OutputTokens, c.LatencyMs, c.TTFTMs, sheet.Dash("%.1f", c.ITLMs))
}

// HTML shows the completion as a table.
func (c Completion) HTML() string {
	sh := sheet.Sheet{Title: "completion"}
	sh.Add("request", c.Request.String())
	sh.Add("replica", fmt.Sprint(c.Replica))
	sh.Add("latency", fmt.Sprintf("%.1f ms (%.1f ms in service)", c.LatencyMs, c.ServiceMs))
	sh.Add("tokens", fmt.Sprintf("%d, TTFT %.1f ms, ITL %s ms (p99 %s ms)", c.OutputTokens, c.TTFTMs, sheet.Dash("%.1f", c.ITLMs), sheet.Dash("%.1f", c.ITLP99Ms)))
	sh.Add("cache, preemptions", fmt.Sprintf("%d prompt tokens cached, %d preemptions", c.CachedTokens, c.Preemptions))
	return sh.HTML()
}
