package docgen

import (
	"strings"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
)

// metricsRun is the table of per-run metrics: the names JSON and CSV use,
// from engine.Metrics.
func metricsRun(*Generator) (string, error) {
	var rows [][]string
	for _, m := range engine.Metrics() {
		unit := m.Unit
		if unit == "fraction" {
			unit = "fraction (shown as %)"
		}
		rows = append(rows, []string{"`" + m.Key + "`", m.About, unit, m.Better.String()})
	}
	return table([]string{"name in JSON and CSV", "what it is", "unit", "better"}, rows), nil
}

// metricsSummary lists the names of a policy's summary record, in order.
func metricsSummary(*Generator) (string, error) {
	var names []string
	for _, f := range experiment.SummaryRecord("x", experiment.Summary{}) {
		names = append(names, "`"+f.Name+"`")
	}
	return strings.Join(names, ", "), nil
}
