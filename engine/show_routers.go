package engine

import (
	"fmt"

	"github.com/routelab/routelab/internal/sheet"
)

// Displays of composed routers (see show.go).

// String is the scorer and its weight: queue×2.
func (s Scorer) String() string {
	if s.Name == "" {
		return "scorer with no name"
	}
	return fmt.Sprintf("%s×%g", s.Name, s.Weight)
}

// HTML shows the scorer as a table.
func (s Scorer) HTML() string {
	sh := sheet.Sheet{Title: "scorer " + s.Name}
	sh.Add("weight", fmt.Sprintf("%g", s.Weight))
	return sh.HTML()
}

// String says what the function is, never its address.
func (f ScoreFunc) String() string { return "a scorer's function of one run" }

// HTML shows what the function is.
func (f ScoreFunc) HTML() string { return sheet.Sheet{Title: f.String()}.HTML() }

func (p ScoringProfile) sheet() sheet.Sheet {
	sh := sheet.Sheet{Title: "scoring profile " + p.Name}
	scorers := make([]string, len(p.Scorers))
	for i, s := range p.Scorers {
		scorers[i] = s.String()
	}
	sh.Add("scorers", sheet.CutList(scorers, " + "))
	sh.Add("picker", "the largest weighted sum, ties drawn at random")
	sh.Add("filter", sheet.YesNo(p.Affinity > 0, fmt.Sprintf("prefix score ≥ %g, skipped with probability %g", p.Affinity, p.Explore), "none"))
	sh.Add("admission", sheet.YesNo(p.Shed, "sheddable requests refused with probability min(sat⁵·300, 1)", "every request"))
	return sh
}

// String describes the profile.
func (p ScoringProfile) String() string { return p.sheet().Text() }

// HTML shows the profile as a table.
func (p ScoringProfile) HTML() string { return p.sheet().HTML() }

func (p *switching) String() string {
	return fmt.Sprintf("switching policy, %d of %d switches made", p.next, len(p.switches))
}
