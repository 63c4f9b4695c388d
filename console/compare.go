package console

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
	"github.com/routelab/routelab/plot"
)

// compareRequest says what to compare policies on: the page's setup (its
// scenario as configured) or the session recorded so far.
type compareRequest struct {
	On string `json:"on"` // "setup" or "session"
}

// compareSeeds is the specification's number of seeds (1 to 10).
const compareSeeds = 10

// compareResult is a comparison as the page shows it: plot's table and
// figure (a light fragment: the page loads the embedded library itself).
type compareResult struct {
	Title   string  `json:"title"`
	Note    string  `json:"note"`
	Table   string  `json:"table"`
	Figure  string  `json:"figure"`
	Seconds float64 `json:"seconds"`
}

// compare runs the specification's comparison — 10 seeds, 3 s warm-up and
// 12 s measured — of the built-in policies the specification compares, the
// policies file's and the policy routing now, on the setup or on the
// recorded session.
func (s *Server) compare(w http.ResponseWriter, r *http.Request, p *page) {
	var req compareRequest
	if err := readJSON(w, r, &req, `{"on": "setup"} or {"on": "session"}`); err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	if !p.startComparing() {
		httpError(w, http.StatusConflict, "a comparison of this page is running already")
		return
	}
	defer p.doneComparing()
	start := time.Now()
	res, err := s.runComparison(r.Context(), p, req.On)
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	res.Seconds = time.Since(start).Seconds()
	writeJSON(w, http.StatusOK, res)
}

func (s *Server) runComparison(ctx context.Context, p *page, on string) (compareResult, error) {
	scn, note, err := p.comparisonScenario(on)
	if err != nil {
		return compareResult{}, err
	}
	c, err := experiment.Compare(ctx, experiment.Experiment{Scenario: scn, Policies: s.comparedPolicies(p),
		Seeds: experiment.DefaultSeeds(compareSeeds), Protocol: engine.DefaultProtocol()})
	if err != nil {
		return compareResult{}, err
	}
	fig, err := plot.Comparison(c, plot.WithID("compare-"+newID()[:12]))
	if err != nil {
		return compareResult{}, err
	}
	return compareResult{Title: fig.Title(), Note: note, Table: plot.ComparisonTable(c), Figure: fig.LightFragment()}, nil
}

// comparisonScenario is the scenario to compare on, and a note saying what
// it holds. A recorded session keeps the controls within the comparison's
// 15 s; later ones are left out, and the note says how many.
func (p *page) comparisonScenario(on string) (engine.Scenario, string, error) {
	switch on {
	case "setup":
		p.mu.Lock()
		su := p.setup
		p.mu.Unlock()
		scn, err := su.scenario()
		return scn, fmt.Sprintf("on the configuration: %s, %g req/s, %d replicas (%s)", su.Scenario, su.Rate, su.Replicas, su.Heterogeneity), err
	case "session":
		rec := p.session().Recording()
		scn := rec.Scenario
		horizon := engine.DefaultProtocol().Horizon()
		kept := slices.DeleteFunc(slices.Clone(scn.Events), func(e engine.Event) bool { return e.At > horizon })
		note := fmt.Sprintf("on the recorded session: %d events of its timeline", len(kept))
		if left := len(scn.Events) - len(kept); left > 0 {
			note += fmt.Sprintf(" (%d after %g s are outside the comparison's run and left out)", left, horizon/1000)
		}
		scn.Events = kept
		return scn, note, nil
	}
	return engine.Scenario{}, "", field("on", on, `"setup" or "session"`)
}

// comparedPolicies are the specification's four, the policies file's, and
// the policy the page routes with now if it is none of those.
func (s *Server) comparedPolicies(p *page) []engine.PolicySpec {
	var out []engine.PolicySpec
	names := map[string]bool{}
	add := func(spec engine.PolicySpec) {
		if !names[spec.Name] {
			names[spec.Name] = true
			out = append(out, spec)
		}
	}
	for _, spec := range engine.SpecificationPolicies() {
		add(spec)
	}
	for _, pol := range s.policies.list {
		if pol.fromFile() {
			add(pol.spec)
		}
	}
	if pol, err := s.policies.lookup(p.session().Frame().Policy); err == nil {
		add(pol.spec)
	}
	return out
}

func (p *page) startComparing() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.comparing {
		return false
	}
	p.comparing = true
	return true
}

func (p *page) doneComparing() {
	p.mu.Lock()
	p.comparing = false
	p.mu.Unlock()
}
