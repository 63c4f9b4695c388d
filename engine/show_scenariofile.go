package engine

import (
	"fmt"
	"html"
	"strings"

	"github.com/routelab/routelab/internal/sheet"
)

// Displays of scenario files and recorded sessions (see show.go).

// String describes the file: its scenario, then the session it records.
func (f ScenarioFile) String() string {
	if f.Session == nil {
		return f.Scenario.String()
	}
	return f.Scenario.String() + "\n" + f.Session.String()
}

// HTML shows the scenario's table, then the session's.
func (f ScenarioFile) HTML() string {
	if f.Session == nil {
		return f.Scenario.HTML()
	}
	return f.Scenario.HTML() + f.Session.HTML()
}

// String says how the session replays, in one line.
func (r RecordedSession) String() string {
	routing := []string{r.Policy}
	for _, s := range r.Switches {
		routing = append(routing, s.String())
	}
	return fmt.Sprintf("recorded session: seed %d, %s, to %s: %s", r.Seed, sheet.CutList(routing, " → "), sheet.Seconds(r.Until), r.Counts)
}

// HTML shows the recorded session as a table.
func (r RecordedSession) HTML() string {
	sh := sheet.Sheet{Title: "recorded session"}
	sh.Add("seed", fmt.Sprint(r.Seed))
	sh.Add("policy", r.Policy)
	if len(r.Switches) > 0 {
		sh.AddGrid("switches", []string{"switch"}, len(r.Switches), func(i int) []string { return []string{r.Switches[i].String()} })
	}
	sh.Add("until", sheet.Seconds(r.Until))
	sh.Add("counts", r.Counts.String())
	return sh.HTML()
}

// String says which policy takes over when.
func (s NamedSwitch) String() string { return fmt.Sprintf("%s from %s", s.Policy, sheet.Seconds(s.At)) }

// HTML shows the switch as its text.
func (s NamedSwitch) HTML() string { return html.EscapeString(s.String()) }

// String lists the counts.
func (c SessionCounts) String() string {
	return strings.Join([]string{
		fmt.Sprintf("%d arrivals", c.Arrivals), fmt.Sprintf("%d completed", c.Completed),
		fmt.Sprintf("%d shed", c.Shed), fmt.Sprintf("%d unfinished", c.Unfinished),
	}, ", ")
}

// HTML shows the counts as their text.
func (c SessionCounts) HTML() string { return html.EscapeString(c.String()) }
