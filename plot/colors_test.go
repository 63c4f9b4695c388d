package plot

import (
	"fmt"
	"strings"
	"testing"

	"github.com/routelab/routelab/engine"
)

// Two custom names that the palette alone would colour alike get different
// colours within one figure and its table.
func TestFigureColoursAreDistinct(t *testing.T) {
	pal := DefaultPalette()
	// Find two names the palette alone colours alike (with a dozen or so
	// further colours, a few dozen names always collide).
	a, b := "", ""
	seen := map[string]string{}
	for i := 0; b == ""; i++ {
		name := fmt.Sprintf("policy-%d", i)
		if prev, ok := seen[pal.Color(name)]; ok {
			a, b = prev, name
		}
		seen[pal.Color(name)] = name
	}
	scn, _ := engine.BuiltinScenario("steady", 100, engine.DefaultHeterogeneity)
	p1, p2 := engine.LeastQueue(), engine.RoundRobin()
	p1.Name, p2.Name = a, b
	c := compare(t, scn, []engine.PolicySpec{p1, p2}, engine.DefaultSeeds(2), engine.DefaultProtocol())
	fig, err := Comparison(c)
	if err != nil {
		t.Fatal(err)
	}
	want := pal.Assign([]string{a, b})
	if want[0] == want[1] {
		t.Fatalf("Assign gave both %s", want[0])
	}
	opt := string(fig.OptionJSON())
	for _, col := range want {
		if !strings.Contains(opt, col) {
			t.Errorf("figure lacks assigned colour %s", col)
		}
	}
	table := ComparisonTable(c)
	for _, col := range want {
		if !strings.Contains(table, col) {
			t.Errorf("table lacks assigned colour %s", col)
		}
	}
}
