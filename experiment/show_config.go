package experiment

import (
	"fmt"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/internal/sheet"
)

// protocolText describes a protocol where zero means the default.
func protocolText(p engine.Protocol) string {
	if p == (engine.Protocol{}) {
		return "default: " + engine.DefaultProtocol().String()
	}
	return p.String()
}

// defaultSeedsText describes a seed list where nil means 1..10.
func defaultSeedsText(seeds []uint64) string {
	if seeds == nil {
		return "default: " + sheet.SeedsText(DefaultSeeds(engine.DefaultSeedCount))
	}
	return sheet.SeedsText(seeds)
}

func policyNames(ps []engine.PolicySpec) string {
	if len(ps) == 0 {
		return "none"
	}
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.Name
	}
	return sheet.CutList(names, ", ")
}

func (e Experiment) sheet() sheet.Sheet {
	sh := sheet.Sheet{Title: "experiment on scenario " + e.Scenario.Name}
	sh.Add("scenario", e.Scenario.Headline())
	sh.Add("policies", policyNames(e.Policies))
	sh.Add("seeds", defaultSeedsText(e.Seeds))
	sh.Add("protocol", protocolText(e.Protocol))
	sh.Add("workers", sheet.WorkersText(e.Workers))
	return sh
}

// String describes the experiment.
func (e Experiment) String() string { return e.sheet().Text() }

// HTML shows the experiment as a table.
func (e Experiment) HTML() string { return e.sheet().HTML() }

func (sw Sweep) sheet() sheet.Sheet {
	sh := sheet.Sheet{Title: "sweep over " + sheet.YesNo(sw.XLabel != "", sw.XLabel, "x")}
	sh.Add("policies", policyNames(sw.Policies))
	sh.Add("seeds", defaultSeedsText(sw.Seeds))
	sh.Add("protocol", protocolText(sw.Protocol))
	sh.Add("workers", sheet.WorkersText(sw.Workers))
	sh.AddGrid("points", []string{"x", "point"}, len(sw.Points), func(i int) []string {
		return []string{fmt.Sprintf("%g", sw.Points[i].X), sw.Points[i].Label}
	})
	return sh
}

// String describes the sweep.
func (sw Sweep) String() string { return sw.sheet().Text() }

// HTML shows the sweep as a table.
func (sw Sweep) HTML() string { return sw.sheet().HTML() }

// String describes the point.
func (p SweepPoint) String() string {
	return fmt.Sprintf("%s (x = %g): %s", p.Label, p.X, p.Scenario.Headline())
}

// HTML shows the point as a table.
func (p SweepPoint) HTML() string {
	sh := sheet.Sheet{Title: "sweep point " + p.Label}
	sh.Add("x", fmt.Sprintf("%g", p.X))
	sh.Add("scenario", p.Scenario.Headline())
	return sh.HTML()
}

func (c StudyConfig) sheet() sheet.Sheet {
	sh := sheet.Sheet{Title: "study " + c.Name}
	sh.Add("rates", sheet.CutList(sheet.Floats(c.Rates), ", ")+" req/s")
	sh.Add("heterogeneity", sheet.CutList(c.Heterogeneity, ", "))
	sh.Add("scenarios", sheet.CutList(c.Scenarios, ", "))
	sh.Add("conditions", fmt.Sprint(len(c.Rates)*len(c.Heterogeneity)*len(c.Scenarios)))
	sh.Add("weights", sheet.CutList(sheet.Floats(c.Weights), ", "))
	sh.Add("development seeds", sheet.SeedsText(c.DevelopmentSeeds))
	sh.Add("validation seeds", sheet.SeedsText(c.ValidationSeeds))
	sh.Add("policies", sheet.CutList(c.Policies, ", "))
	sh.Add("protocol", c.Protocol.String())
	return sh
}

// String describes the study.
func (c StudyConfig) String() string { return c.sheet().Text() }

// HTML shows the study as a table.
func (c StudyConfig) HTML() string { return c.sheet().HTML() }

// HTML shows the condition as a table.
func (c Condition) HTML() string {
	sh := sheet.Sheet{Title: "condition " + c.String()}
	sh.Add("scenario", c.Scenario)
	sh.Add("heterogeneity", c.Heterogeneity)
	sh.Add("rate", fmt.Sprintf("%g req/s", c.Rate))
	return sh.HTML()
}
