package experiment

import (
	"fmt"
	"strings"

	"github.com/routelab/routelab/internal/sheet"
)

// Displays of paired statistics (see show.go): a paired comparison shows
// its table, a statistic its figures and seeds, with the verdict in words.

// String is the paired table as text.
func (p Paired) String() string {
	var b strings.Builder
	_ = p.WriteText(&b)
	return strings.TrimSuffix(b.String(), "\n")
}

// HTML shows the paired table (the text table's columns).
func (p Paired) HTML() string {
	head, rows := p.tableRows()
	sh := sheet.Sheet{Title: p.headline(), Note: pairedNote}
	sh.AddGrid("statistics", head, len(rows), func(i int) []string { return rows[i] })
	return sh.HTML()
}

// String gives the statistic in one line.
func (s PairedStat) String() string {
	if s.Metric.Key == "" {
		return "empty paired statistic (Comparison.Paired makes them)"
	}
	return fmt.Sprintf("%s − %s in %s over %d seeds: mean %s, 95 %% %s %s; %d won, %d lost, %d tied: %s",
		s.Policy, s.Baseline, s.Metric.Label(), s.Seeds, s.Metric.DiffText(s.DiffMean), s.Method.describe(),
		s.Metric.IntervalText(s.CILow, s.CIHigh), s.Wins, s.Losses, s.Ties, s.Verdict())
}

// HTML shows the statistic's figures and a row per seed.
func (s PairedStat) HTML() string {
	sh := sheet.Sheet{Title: s.String()}
	addFields(&sh, s.Record(), "metric", "baseline", "policy")
	sh.AddGrid("seeds", []string{"seed", s.Baseline, s.Policy, "Δ", "better"}, len(s.Pairs), func(i int) []string {
		p := s.Pairs[i]
		return []string{fmt.Sprint(p.Seed), s.Metric.ValueText(p.Baseline), s.Metric.ValueText(p.Policy),
			s.Metric.DiffText(p.Diff), p.winnerText(s.Baseline, s.Policy)}
	})
	return sh.HTML()
}

// String gives the seed's pair in one line.
func (p SeedPair) String() string {
	return fmt.Sprintf("seed %d: baseline %s, policy %s, difference %s", p.Seed, sheet.Dash("%g", p.Baseline), sheet.Dash("%g", p.Policy), sheet.Dash("%+g", p.Diff))
}

// HTML shows the pair as a table.
func (p SeedPair) HTML() string {
	sh := sheet.Sheet{Title: fmt.Sprintf("seed %d", p.Seed)}
	sh.Add("baseline", sheet.Dash("%g", p.Baseline))
	sh.Add("policy", sheet.Dash("%g", p.Policy))
	sh.Add("policy − baseline", sheet.Dash("%+g", p.Diff))
	sh.Add("better", p.winnerText("baseline", "policy"))
	return sh.HTML()
}

// winnerText names the side that did better on the seed.
func (p SeedPair) winnerText(baseline, policy string) string {
	switch p.Winner {
	case 1:
		return policy
	case -1:
		return baseline
	}
	return sheet.YesNo(finite(p.Diff), "tie", "—")
}

// String describes the options, defaults filled in.
func (o PairedOptions) String() string { return "paired options: " + strings.Join(o.describe(), "; ") }

// HTML shows the options as a table.
func (o PairedOptions) HTML() string {
	sh := sheet.Sheet{Title: "paired options (95 % intervals)"}
	for _, part := range o.describe() {
		label, value, _ := strings.Cut(part, " ")
		sh.Add(label, value)
	}
	return sh.HTML()
}

// describe lists each option as "name value".
func (o PairedOptions) describe() []string {
	list := func(xs []string, unset string) string {
		switch {
		case xs == nil:
			return unset
		case len(xs) == 0:
			return "none"
		}
		return sheet.CutList(xs, ", ")
	}
	return []string{
		fmt.Sprintf("baseline %q", o.Baseline),
		"policies " + list(o.Policies, "every other"),
		"metrics " + list(o.Metrics, strings.Join(PairedMetricKeys(), ", ")+" (serving: "+strings.Join(ServingPairedMetricKeys(), ", ")+")"),
		"method " + sheet.YesNo(o.Method != "", string(o.Method), string(PairedT)),
	}
}

// String lists each point's paired table.
func (p SweepPaired) String() string {
	if len(p.Points) == 0 {
		return "paired sweep with no points"
	}
	var b strings.Builder
	_ = p.WriteText(&b)
	return strings.TrimSuffix(b.String(), "\n")
}

// HTML shows each point's paired table.
func (p SweepPaired) HTML() string {
	var b strings.Builder
	b.WriteString(sheet.Sheet{Title: fmt.Sprintf("paired statistics over %s: %d points", sheet.YesNo(p.XLabel != "", p.XLabel, "x"), len(p.Points))}.HTML())
	for _, pt := range p.Points {
		if pt != nil {
			b.WriteString(pt.HTML())
		}
	}
	return b.String()
}
