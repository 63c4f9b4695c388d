package docgen

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/routelab/routelab/experiment"
	"github.com/routelab/routelab/internal/docmark"
)

// Owners are the names' first components docgen writes.
var Owners = []string{"model", "study", "metrics", "compare", "serving"}

// ForeignOwners write their parts elsewhere; every part of the docs belongs
// to one of Owners or of these, so a misspelt name cannot go unchecked.
var ForeignOwners = map[string]string{
	"cli":        "cmd/routelab (go test ./cmd/routelab -run TestCLIReference -update)",
	"validation": "engine (go test ./engine -run 'Queue|MM1|MD1|MG1|Block|Overload|Straggler|Recovery|Stale' -update)",
}

// Generator renders the parts and files; it computes each figure once.
type Generator struct {
	// Root is the repository's root directory.
	Root string
	ctx  context.Context

	mu    sync.Mutex
	cache map[string]string

	studyOnce sync.Once
	study     *experiment.StudyResult
	studyErr  error

	stragglerOnce sync.Once
	straggler     *experiment.Comparison
	stragglerErr  error
}

// New returns a generator for the repository at root.
func New(ctx context.Context, root string) *Generator {
	return &Generator{Root: root, ctx: ctx, cache: map[string]string{}}
}

// part renders one named part.
type part func(g *Generator) (string, error)

// parts is the one registry of the parts docgen writes.
var parts = map[string]part{
	"model.constants":        modelConstants,
	"model.policies":         modelPolicies,
	"model.scenarios":        modelScenarios,
	"serving.scenarios":      servingScenarios,
	"model.demand-mean":      demandMean,
	"model.demand-cv":        demandCV,
	"metrics.run":            metricsRun,
	"metrics.summary":        metricsSummary,
	"study.development":      studyDevelopment,
	"study.validation":       studyValidation,
	"study.selected":         studySelected,
	"study.protocol":         studyProtocol,
	"study.runs":             studyRuns,
	"study.spread":           studySpread,
	"study.adaptive":         studyAdaptive,
	"study.latency":          studyLatencyAware,
	"study.runner-up":        studyRunnerUp,
	"study.margin":           studyMargin,
	"study.margin-stderr":    studyMarginStdErr,
	"study.weight-stderr":    studyWeightStdErr,
	"study.gain":             studyGain,
	"compare.p99-range":      compareP99Range,
	"compare.spread-rr":      compareSpreadRoundRobin,
	"compare.spread-latency": compareSpreadLatency,
	"compare.p90-t":          compareP90T,
	"compare.p90-bootstrap":  compareP90Bootstrap,
	"compare.p99-wins":       compareP99Wins,
	"compare.ratios":         compareRatios,
}

// File is a whole file docgen writes.
type File struct {
	Path   string // relative to the repository's root
	render func(g *Generator) ([]byte, error)
}

// Files are the whole files docgen writes.
var Files = []File{
	{"docs/images/architecture.svg", architectureSVG},
	{"docs/images/straggler.svg", stragglerSVG},
}

// PartNames lists the parts docgen can render.
func PartNames() []string {
	names := make([]string, 0, len(parts))
	for n := range parts {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Render returns a part's text.
func (g *Generator) Render(name string) (string, error) {
	g.mu.Lock()
	if s, ok := g.cache[name]; ok {
		g.mu.Unlock()
		return s, nil
	}
	g.mu.Unlock()
	p, ok := parts[name]
	if !ok {
		return "", fmt.Errorf("no generator for %q (docgen writes %s)", name, strings.Join(PartNames(), ", "))
	}
	s, err := p(g)
	if err != nil {
		return "", err
	}
	g.mu.Lock()
	g.cache[name] = s
	g.mu.Unlock()
	return s, nil
}

// Documents are the Markdown files whose parts are checked: the README and
// every page under docs/.
func (g *Generator) Documents() ([]string, error) {
	docs, err := filepath.Glob(filepath.Join(g.Root, "docs", "*.md"))
	if err != nil {
		return nil, err
	}
	return append([]string{filepath.Join(g.Root, "README.md")}, docs...), nil
}

// Drift is a difference between the repository and what the code gives.
type Drift struct {
	Path    string
	Message string
}

func (d Drift) String() string { return d.Path + ": " + d.Message }

// Check compares every part and file docgen writes with the repository,
// and checks that every part of every document has a known owner.
func (g *Generator) Check() ([]Drift, error) {
	var drifts []Drift
	docs, err := g.Documents()
	if err != nil {
		return nil, err
	}
	for _, path := range docs {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		rel := g.rel(path)
		ps, err := docmark.Parts(string(data))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", rel, err)
		}
		for _, p := range ps {
			if _, foreign := ForeignOwners[p.Owner()]; !foreign && !slices.Contains(Owners, p.Owner()) {
				drifts = append(drifts, Drift{rel, fmt.Sprintf("line %d: part %s has no owner (want a name starting with one of %s)", p.Line, p.Name, strings.Join(allOwners(), ", "))})
			}
		}
		for _, owner := range Owners {
			ds, err := docmark.Check(rel, string(data), owner, g.Render)
			if err != nil {
				return nil, err
			}
			for _, d := range ds {
				drifts = append(drifts, Drift{rel, d.Error()})
			}
		}
	}
	for _, f := range Files {
		want, err := f.render(g)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Path, err)
		}
		have, err := os.ReadFile(filepath.Join(g.Root, f.Path))
		if err != nil {
			drifts = append(drifts, Drift{f.Path, "missing: " + err.Error()})
		} else if string(have) != string(want) {
			drifts = append(drifts, Drift{f.Path, fmt.Sprintf("differs from what the code gives (%d bytes committed, %d generated)", len(have), len(want))})
		}
	}
	return drifts, nil
}

// Update rewrites every part and file docgen writes, and returns the paths
// it changed.
func (g *Generator) Update() ([]string, error) {
	var changed []string
	docs, err := g.Documents()
	if err != nil {
		return nil, err
	}
	for _, path := range docs {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		out := string(data)
		for _, owner := range Owners {
			if out, err = docmark.Rewrite(out, owner, g.Render); err != nil {
				return nil, fmt.Errorf("%s: %w", g.rel(path), err)
			}
		}
		if out != string(data) {
			if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
				return nil, err
			}
			changed = append(changed, g.rel(path))
		}
	}
	for _, f := range Files {
		want, err := f.render(g)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Path, err)
		}
		path := filepath.Join(g.Root, f.Path)
		if have, err := os.ReadFile(path); err == nil && string(have) == string(want) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(path, want, 0o644); err != nil {
			return nil, err
		}
		changed = append(changed, f.Path)
	}
	return changed, nil
}

func (g *Generator) rel(path string) string {
	if r, err := filepath.Rel(g.Root, path); err == nil {
		return filepath.ToSlash(r)
	}
	return path
}

func allOwners() []string {
	all := slices.Clone(Owners)
	for o := range ForeignOwners {
		all = append(all, o)
	}
	sort.Strings(all)
	return all
}
