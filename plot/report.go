package plot

import (
	"bytes"
	"fmt"
	"html"
	"strings"

	"github.com/routelab/routelab/experiment"
)

// ComparisonReport shows one comparison whole: its summary table, the
// Comparison figure and, when the runs kept their latencies, the latency
// CDFs. It renders as a standalone page or as one notebook output.
type ComparisonReport struct {
	title   string
	table   string
	figures []*Figure
}

// Report builds a comparison's report. The options apply to every figure;
// WithID gives a prefix for the figures' ids and WithTitle the report's
// title.
func Report(c *experiment.Comparison, options ...Option) (*ComparisonReport, error) {
	if err := checkComparison(c); err != nil {
		return nil, err
	}
	s, err := applyOptions(options, defaultWidth)
	if err != nil {
		return nil, err
	}
	figureOptions := func(kind string) []Option {
		o := append(append([]Option(nil), options...), WithTitle(""), WithID(""))
		if s.id != "" {
			o = append(o, WithID(s.id+"-"+kind))
		}
		return o
	}
	r := &ComparisonReport{title: s.title, table: ComparisonTable(c)}
	if r.title == "" {
		r.title = fmt.Sprintf("%s: %s compared", c.Scenario.Name, plural(len(c.Policies), "policy", "policies"))
	}
	cmp, err := Comparison(c, figureOptions("comparison")...)
	if err != nil {
		return nil, err
	}
	r.figures = append(r.figures, cmp)
	if hasLatencies(c) {
		cdf, err := LatencyCDF(c, figureOptions("latency-cdf")...)
		if err != nil {
			return nil, err
		}
		r.figures = append(r.figures, cdf)
	}
	return r, nil
}

func hasLatencies(c *experiment.Comparison) bool {
	for _, p := range c.Policies {
		for _, r := range p.Runs {
			if len(r.Latencies) > 0 {
				return true
			}
		}
	}
	return false
}

// Title returns the report's title.
func (r *ComparisonReport) Title() string { return r.title }

// Table returns the summary table (ComparisonTable).
func (r *ComparisonReport) Table() string { return r.table }

// Figures returns the report's figures.
func (r *ComparisonReport) Figures() []*Figure { return append([]*Figure(nil), r.figures...) }

// HTML implements display.HTMLer: the table, then the figures, the first
// carrying the ECharts library and the others light.
func (r *ComparisonReport) HTML() string {
	var b strings.Builder
	b.WriteString(r.table)
	for i, f := range r.figures {
		b.WriteString("\n")
		if i == 0 {
			b.WriteString(f.Fragment())
		} else {
			b.WriteString(f.LightFragment())
		}
	}
	return b.String()
}

// String describes the report for text/plain outputs.
func (r *ComparisonReport) String() string {
	return fmt.Sprintf("Report %q: summary table and %d figures", r.title, len(r.figures))
}

// Render returns the report as a standalone HTML document with the ECharts
// library inlined once.
func (r *ComparisonReport) Render() ([]byte, error) {
	var b bytes.Buffer
	if err := writePageHead(&b, r.title, pageStyle); err != nil {
		return nil, err
	}
	fmt.Fprintf(&b, "<h1>%s</h1>\n%s\n", html.EscapeString(r.title), r.table)
	for _, f := range r.figures {
		b.WriteString("<figure>\n")
		b.WriteString(f.fragment(fragmentConfig{width: "100%", theme: f.theme}))
		b.WriteString("\n</figure>\n")
	}
	b.WriteString("</body>\n</html>\n")
	return b.Bytes(), nil
}

// WriteFile writes the standalone report to path.
func (r *ComparisonReport) WriteFile(path string) error {
	page, err := r.Render()
	if err != nil {
		return err
	}
	return WriteFile(path, page)
}
