package notebooks_test

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/kernel"
	"github.com/routelab/routelab/live"
)

// facts are numbers a notebook's prose may state without a cell showing
// them: mathematical facts, with why. Everything else a markdown cell says
// in figures must be shown by the notebook's own cells (their code or
// their outputs) or be one of the model's constants.
var facts = map[string]map[string]string{
	"03-failure-modes.ipynb":      {"58": "175/3: Round Robin's third of 175 req/s"},
	"04-hockey-stick.ipynb":       {"4.6": "ln 100"},
	"05-exploration-weight.ipynb": {"3,456": "24 conditions × (6 weights × 8 seeds + 4 policies × 24 seeds) in examples/study.json"},
}

// modelConstants are the engine's constants as prose writes them (and a
// live view's default speed), with
// what follows from them directly: each replica's capacity (1000/speed
// req/s), and the built-in scenarios' event times (s), factors, and the
// slowed replicas' speeds and capacities.
func modelConstants() []float64 {
	p := engine.DefaultAdaptiveParams()
	mean, _, _ := engine.DemandMoments(engine.DefaultDemand(), 1, 1000000)
	out := []float64{engine.StepMs, engine.DefaultQueueCap, engine.DefaultRate, engine.DefaultSLO,
		engine.DefaultWarmup / 1000, engine.DefaultMeasure / 1000, engine.DefaultSeedCount,
		engine.ReferenceDemand, engine.DefaultJitter, p.Alpha, p.C, p.Ceiling, mean,
		engine.LiveWindowSize, engine.ThroughputWindow, live.DefaultSpeed}
	for _, h := range []engine.Heterogeneity{engine.DefaultHeterogeneity, engine.HighHeterogeneity} {
		speeds, _ := h.Speeds()
		for _, s := range speeds {
			out = append(out, s, 1000/(mean*s/engine.ReferenceDemand))
		}
		for _, name := range engine.ScenarioNames() {
			scn, _ := engine.BuiltinScenario(name, engine.DefaultRate, h)
			for _, e := range scn.Events {
				out = append(out, e.At/1000, e.Value)
				if e.Kind == engine.EventSlow {
					slow := speeds[e.Replica-1] * e.Value
					out = append(out, slow, 1000/slow)
				}
			}
		}
	}
	return out
}

var (
	codeSpan   = regexp.MustCompile("(?s)```.*?```|`[^`]*`")
	linkTarget = regexp.MustCompile(`\]\([^)]*\)`)
	number     = regexp.MustCompile(`\d[\d,]*(\.\d+)?`)
)

// proseNumbers are the numbers a markdown cell states, outside code, link
// targets and headings, with the text around each. A digit run glued to a
// letter, a slash or a dot (p99, M/M/1, cell 3.2) is a name, not a figure.
func proseNumbers(md string) []struct{ text, context string } {
	var out []struct{ text, context string }
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		line = linkTarget.ReplaceAllString(codeSpan.ReplaceAllString(line, "``"), "]()")
		for _, m := range number.FindAllStringIndex(line, -1) {
			text := strings.TrimRight(line[m[0]:m[1]], ",")
			if m[0] > 0 && strings.ContainsAny(line[m[0]-1:m[0]], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_/.^[") {
				continue
			}
			if m[1] < len(line) && strings.ContainsAny(line[m[1]:m[1]+1], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_/") {
				continue
			}
			out = append(out, struct{ text, context string }{text, strings.TrimSpace(line)})
		}
	}
	return out
}

// numbersIn are the numbers written in text.
func numbersIn(text string) []float64 {
	var out []float64
	for _, m := range regexp.MustCompile(`\d[\d,]*(\.\d+)?(e[-+]?\d+)?`).FindAllString(text, -1) {
		if v, err := strconv.ParseFloat(strings.ReplaceAll(m, ",", ""), 64); err == nil {
			out = append(out, v)
		}
	}
	return out
}

// outputText is everything a code cell shows as text.
func outputText(c *kernel.Cell) string {
	var text strings.Builder
	for _, o := range c.Outputs {
		text.WriteString(o.Text + "\n" + o.EValue + "\n")
		if s, ok := o.Data[display.TextPlain].(string); ok {
			text.WriteString(s + "\n")
		}
	}
	return text.String()
}

// near is how many code cells on either side of a markdown cell may show
// the figures it states.
const near = 3

// shownNear are the numbers a markdown cell may rest on: every code cell's
// source (the notebook's inputs) and the outputs of the code cells around
// it.
func shownNear(nb *kernel.Notebook, at int) []float64 {
	var text strings.Builder
	var code []int
	for i, c := range nb.Cells {
		if c.Type == "code" {
			text.WriteString(c.Source + "\n")
			code = append(code, i)
		}
	}
	before, after := 0, 0
	for j := len(code) - 1; j >= 0; j-- {
		if code[j] < at && before < near {
			text.WriteString(outputText(nb.Cells[code[j]]))
			before++
		}
	}
	for _, i := range code {
		if i > at && after < near {
			text.WriteString(outputText(nb.Cells[i]))
			after++
		}
	}
	return numbersIn(text.String())
}

// matches tells whether the prose figure text (its decimals are its
// precision) is what value gives when rounded so, directly or as a
// percentage of a fraction.
func matches(text string, value float64) bool {
	want, err := strconv.ParseFloat(strings.ReplaceAll(text, ",", ""), 64)
	if err != nil {
		return false
	}
	decimals := 0
	if i := strings.IndexByte(text, '.'); i >= 0 {
		decimals = len(text) - i - 1
	}
	round := func(x float64) string { return strconv.FormatFloat(x, 'f', decimals, 64) }
	w := round(want)
	return round(value) == w || round(100*value) == w || decimals == 0 && math.Abs(value-want) <= 0.5
}

// checkProseNumbers requires every figure in the notebook's markdown to be
// an input of its cells, shown by the cells around it, a model constant, or
// a listed fact.
func checkProseNumbers(t *testing.T, path string, nb *kernel.Notebook) {
	t.Helper()
	constants := modelConstants()
	for i, c := range nb.Cells {
		if c.Type != "markdown" {
			continue
		}
		values := append(shownNear(nb, i), constants...)
		for _, n := range proseNumbers(c.Source) {
			if _, ok := facts[path][n.text]; ok {
				continue
			}
			found := false
			for _, v := range values {
				if matches(n.text, v) {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("%s cells[%d] states %s, which no cell of the notebook shows: %q", path, i, n.text, n.context)
			}
		}
	}
}

func TestProseNumbersAreFound(t *testing.T) {
	got := proseNumbers("## 3. Stale\nThe p99 of M/M/1 is 41.7 ms at `rate 175` and [x](a/1.md); 1,000 runs, 80 % busy.")
	var texts []string
	for _, n := range got {
		texts = append(texts, n.text)
	}
	if strings.Join(texts, " ") != "41.7 1,000 80" {
		t.Errorf("numbers %v, want 41.7 1,000 80", texts)
	}
	for _, c := range []struct {
		text  string
		value float64
		want  bool
	}{
		{"0.6", 0.611, true}, {"0.6", 0.3, false}, {"80", 0.8, true}, {"188", 187.5, true},
		{"1,000", 1000, true}, {"41.7", 41.66, true}, {"41.7", 41.6, false}, {"3", 4, false},
	} {
		if got := matches(c.text, c.value); got != c.want {
			t.Errorf("matches(%q, %v) = %v, want %v", c.text, c.value, got, c.want)
		}
	}
}
