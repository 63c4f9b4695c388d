package docgen

import (
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/routelab/routelab/console"
	"github.com/routelab/routelab/dsl"
	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
	"github.com/routelab/routelab/internal/docmark"
)

// checkedPages are the pages whose figures must come from the code: each
// figure with a unit is generated (a docmark part), a model constant, or
// stands in a section that says on which date and machine it was
// measured.
var checkedPages = []string{"README.md", "docs/notebooks.md", "docs/console.md", "docs/statistics.md", "docs/lab.md", "docs/kernel.md", "docs/dsl.md", "docs/model.md", "docs/cli.md", "docs/extending.md", "docs/performance.md", "docs/plotting.md"}

var (
	fencedBlock = regexp.MustCompile("(?ms)^\\s*```.*?^\\s*```")
	indented    = regexp.MustCompile(`(?m)^    .*$`)
	codeText    = regexp.MustCompile("`[^`]*`")
	figureUnit  = regexp.MustCompile(`(?:^|[^\p{L}\p{N}_.])(\d[\d,]*(?:\.\d+)?)\s*(ms|µs|ns|s|%|MB|KB|GB|MiB|KiB|GiB|req/s|pp|percentage points)(?:[^\w/]|$)`)
	heading     = regexp.MustCompile(`(?m)^#{1,6} `)
	dated       = regexp.MustCompile(`[Mm]easured (?:on |in )?(?:\d{1,2} )?(?:January|February|March|April|May|June|July|August|September|October|November|December) \d{4}`)
)

// inputs are figures with units that describe an input, a limit or a
// quoted value, not a result, page by page, with what they are.
var inputs = map[string]map[string]string{
	"docs/notebooks.md": {"300 req/s": "the spike written in examples/trace-replay/trace.csv"},
	"docs/console.md": {
		"150 req/s": "the rate TestConsoleScreenshots sets for the pictures",
		"64 KB":     "console's maxControl, the largest control message read",
	},
	"docs/performance.md": {"24 GiB": "the development machine's memory, in the page's description of it"},
	"docs/plotting.md": {
		"1 %":   "the CDF's labelled 1% line, a fixed annotation",
		"0.5 s": "plot's least interval of the timeline's assignment shares",
	},
	"docs/statistics.md": {"88 %": "a textbook value: a normal quantile's coverage for samples of five, P(|t₄| ≤ 1.96)"},
	"docs/kernel.md": {
		"5 s":    "kernel's interruptGrace, how long a timed-out cell gets to stop",
		"2 s":    "kernel's workerGrace, how long shutdown waits for a running cell",
		"3 s":    "kernel/worker's stopGrace, how long an ended worker gets before it is killed",
		"10 s":   "kernel's handshakeTimeout and writeTimeout (ZMTP)",
		"1 GiB":  "kernel's maxFrame (the largest ZMTP frame read), and the memory limit the session-death tests set",
		"64 MiB": "kernel's queueBytes, an iopub subscriber's queue",
		"50 ms":  "kernel's streamFlushDelay, the longest a print waits to be sent",
		"100 ms": "the threshold kernel/testdata/bench_kernel.py counts slow starts by",
	},
	"docs/dsl.md": {"1 GB": "the Go runtime's default maximum stack on 64-bit platforms (runtime/debug.SetMaxStack)"},
	"docs/model.md": {
		"3 ms":     "1/3 ms, a chunk size TestAdvanceChunkInvariance and TestAdvanceThirdsReachTheWholeSecond use",
		"0.1 ms":   "a chunk size TestAdvanceChunkInvariance uses",
		"0.7 ms":   "a chunk size TestAdvanceChunkInvariance uses",
		"7 ms":     "a chunk size TestAdvanceChunkInvariance uses",
		"999.5 ms": "arithmetic of a rejected design: 3,000 chunks of 1/3 ms, each rounded down to 333,333 ns, sum to 999.999 ms, whose last boundary is 999.5 ms",
		"72.42 %":  "the specification's published Adaptive score",
		"72.39 %":  "the specification's published Latency Aware score",
	},
}

// checked are figures with units a test holds to what the code gives,
// page by page, with the test's name.
var checked = map[string]map[string]string{
	"docs/console.md": {
		"20 KB":   "TestViewOfABusyFrameFitsTheUpdateBudget",
		"6.3 KB":  "TestConsolePageStatesTheUpdateSizes",
		"16.4 KB": "TestConsolePageStatesTheUpdateSizes",
	},
	"docs/statistics.md": {"15 %": "TestIntervalsCoverage"},
}

// figure writes a value with its unit as the pages do.
func figure(v float64, unit string) string {
	return strconv.FormatFloat(v, 'f', -1, 64) + " " + unit
}

// constantsWithUnits are the model's constants as prose writes them, so
// "the 50 ms SLO" or "a 3 s warm-up" need no date; the specification
// study's rates, the level of every interval and what follows from these
// count too.
func constantsWithUnits() map[string]bool {
	out := map[string]bool{}
	add := func(v float64, unit string) { out[figure(v, unit)] = true }
	add(engine.StepMs, "ms")
	add(2*engine.StepMs, "ms") // two quanta, an idle system's overhead at most
	add(engine.DefaultSLO, "ms")
	add(engine.DefaultRate, "req/s")
	add(engine.DefaultWarmup/1000, "s")
	add(engine.DefaultMeasure/1000, "s")
	add((engine.DefaultWarmup+engine.DefaultMeasure)/1000, "s") // a default run's length
	add(engine.ReferenceDemand, "ms")
	add(engine.DefaultCeiling, "ms")
	add(engine.ThroughputWindow, "ms")
	add(engine.ThroughputWindow/1000, "s")
	add(100*experiment.PairedLevel, "%")
	// The chance that one of 15 independent intervals (3 policies × 5
	// metrics) excludes zero when no difference is real.
	add(math.Round(100*(1-math.Pow(experiment.PairedLevel, 15))), "%")
	for _, r := range experiment.SpecificationStudy().Rates {
		add(r, "req/s")
	}
	for _, h := range []engine.Heterogeneity{engine.DefaultHeterogeneity, engine.HighHeterogeneity} {
		speeds, _ := h.Speeds()
		capacity := 0.0
		for _, s := range speeds {
			add(s, "ms")
			capacity += 1000 / s
		}
		// The cluster's capacity for reference requests, as pages round it.
		add(math.Round(capacity), "req/s")
		for _, name := range engine.ScenarioNames() {
			scn, _ := engine.BuiltinScenario(name, engine.DefaultRate, h)
			for _, e := range scn.Events {
				add(e.At/1000, "s")
			}
		}
	}
	return out
}

// pageConstants are constants of one package, as the page about it
// writes them.
func pageConstants() map[string]map[string]bool {
	return map[string]map[string]bool{
		"docs/console.md": {figure(console.DefaultGrace.Seconds(), "s"): true},
		"docs/dsl.md":     {figure(float64(dsl.DefaultInterruptGrace.Milliseconds()), "ms"): true},
	}
}

// withoutModel are the pages about parts of routelab that share no
// constant with the model: a figure there that equals one of the model's
// is a coincidence, not a reason to pass.
var withoutModel = map[string]bool{"docs/kernel.md": true}

// undatedFigures lists the figures with units of a page that are neither
// generated, nor constants, nor in a dated section.
func undatedFigures(doc string, constants map[string]bool) ([]string, error) {
	prose, err := docmark.Strip(doc)
	if err != nil {
		return nil, err
	}
	prose = indented.ReplaceAllString(fencedBlock.ReplaceAllString(prose, ""), "")
	prose = codeText.ReplaceAllString(prose, "``")
	starts := append(heading.FindAllStringIndex(prose, -1), []int{len(prose), len(prose)})
	var out []string
	last := 0
	for _, h := range starts {
		section := prose[last:h[0]]
		last = h[0]
		if dated.MatchString(section) && strings.Contains(section, "machine") {
			continue
		}
		for _, m := range figureUnit.FindAllStringSubmatch(section, -1) {
			if fig := strings.ReplaceAll(m[1], ",", "") + " " + m[2]; !constants[fig] {
				title, _, _ := strings.Cut(strings.TrimSpace(section), "\n")
				out = append(out, m[1]+" "+m[2]+" (section "+title+")")
			}
		}
	}
	return out, nil
}

// The pages state no figure about routelab's results that nothing checks:
// what is not generated, a constant, an input or checked by a test says
// when and where it was measured. A figure listed as an input or checked
// must be on its page, so the lists hold nothing stale.
func TestProseFiguresAreGeneratedOrDated(t *testing.T) {
	tests, err := testNames(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	known, model := pageConstants(), constantsWithUnits()
	for _, page := range checkedPages {
		data, err := os.ReadFile(filepath.Join("..", "..", page))
		if err != nil {
			t.Fatal(err)
		}
		constants := model
		if withoutModel[page] {
			constants = nil
		}
		figs, err := undatedFigures(string(data), constants)
		if err != nil {
			t.Fatalf("%s: %v", page, err)
		}
		seen := map[string]bool{}
		for _, f := range figs {
			fig, _, _ := strings.Cut(f, " (section")
			seen[fig] = true
			if inputs[page][fig] != "" || known[page][fig] {
				continue
			}
			if test := checked[page][fig]; test != "" {
				if !tests[test] {
					t.Errorf("%s: %s is checked by %s, which is no test", page, fig, test)
				}
				continue
			}
			t.Errorf("%s states %s: generate it, or say in its section on which date and machine it was measured", page, f)
		}
		for _, list := range []map[string]map[string]string{inputs, checked} {
			for fig := range list[page] {
				if !seen[fig] {
					t.Errorf("%s no longer states %s undated: take it off the list", page, fig)
				}
			}
		}
	}
	for page := range inputs {
		if !slices.Contains(checkedPages, page) {
			t.Errorf("inputs of %s, a page not checked", page)
		}
	}
}

// testNames are the names of the repository's Go tests.
func testNames(root string) (map[string]bool, error) {
	decl := regexp.MustCompile(`(?m)^func (Test\w+)\(`)
	names := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "third_party" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range decl.FindAllStringSubmatch(string(data), -1) {
			names[m[1]] = true
		}
		return nil
	})
	return names, err
}

// A figure is found outside code and generated parts, unless its section
// names a date and the machine.
func TestUndatedFiguresAreFound(t *testing.T) {
	doc := "# A\n\nThe SLO is 50 ms and a run takes 3.2 s, gaining 0.4 pp.\n\n" +
		"## B\n\nMeasured on 1 December 2026 on the development machine: 9.5 ms.\n\n" +
		"## C\n\n`took 7 ms` and <!-- gen model.x -->12 ms<!-- /gen --> and\n\n    indented 5 ms\n\n80 % busy.\n\n" +
		"## D\n\nMeasured on 1 December 2026, somewhere: 2.5 ms.\n"
	got, err := undatedFigures(doc, constantsWithUnits())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, "; ") != "3.2 s (section # A); 0.4 pp (section # A); 80 % (section ## C); 2.5 ms (section ## D)" {
		t.Errorf("undated figures %q", got)
	}
}
