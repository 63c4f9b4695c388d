package docgen

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/routelab/routelab/experiment"
)

// The output docs/statistics.md shows in its code blocks is what routelab
// prints: the straggler comparison against Latency Aware and the study's
// selection margin, line for line (the command lines and the elisions
// marked … aside).
func TestStatisticsExamplesAreTheOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the study (a few seconds)")
	}
	g := New(context.Background(), filepath.Join("..", ".."))
	c, err := g.runStraggler()
	if err != nil {
		t.Fatal(err)
	}
	p, err := g.stragglerPaired(experiment.PairedT)
	if err != nil {
		t.Fatal(err)
	}
	st, err := g.runStudy()
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, write := range []func() error{
		func() error { return c.WriteText(&out) },
		func() error { return p.WriteText(&out) },
		func() error { return st.WriteUncertainty(&out) },
	} {
		if err := write(); err != nil {
			t.Fatal(err)
		}
	}
	printed := strings.Split(out.String(), "\n")
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "statistics.md"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, block := range fencedBlock.FindAllString(string(doc), -1) {
		for _, line := range strings.Split(block, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "```") || strings.HasPrefix(line, "$ ") || strings.Contains(line, "…") || strings.TrimSpace(line) == "" {
				continue
			}
			checked++
			if !slices.Contains(printed, line) {
				t.Errorf("docs/statistics.md shows a line routelab does not print:\n%s", line)
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d lines of output checked: did the page's code blocks move?", checked)
	}
}
