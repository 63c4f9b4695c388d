package symbols_test

import (
	"strings"
	"testing"
)

// chatCell defines a small serving scenario with shared system prompts and
// a function that compares policies on it as JSON.
const chatCell = `import (
	"bytes"
	"context"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
)

func chat() engine.Scenario {
	s := engine.NewScenario("chat")
	s.Rate, s.Speeds = 30, []float64{11, 11, 11}
	s.Demand.Tokens = engine.ServingTokenModel()
	c := engine.DefaultServing()
	c.Workload = engine.ServingWorkload{PrefixGroups: 8, ZipfS: 1.1, SystemPromptTokens: 512}
	s.Serving = &c
	return s
}

func compareJSON(specs ...lab.PolicySpec) string {
	c, err := experiment.Compare(context.Background(), experiment.Experiment{Scenario: chat(), Policies: specs,
		Seeds: experiment.DefaultSeeds(3), Protocol: engine.Protocol{Warmup: 1000, Measure: 4000, SLO: 2000}})
	if err != nil {
		panic(err)
	}
	var b bytes.Buffer
	c.WriteJSON(&b)
	return b.String()
}`

// A scorer written in a cell composes with the built-in scorers: written as
// llm-d's prefix scorer, the composition is the built-in llm-d profile byte
// for byte; another scorer of the cell changes the routing; bad weights and
// NaN scores are refused with the value named.
func TestInterpretedScorer(t *testing.T) {
	s := newSession(t)
	exec(t, s, chatCell)
	exec(t, s, `func prefix(w float64) lab.Scorer {
	return lab.Score("prefix", w, func(v *lab.View, r lab.Replica) float64 {
		if v.Request.PromptTokens == 0 {
			return 0
		}
		share := float64(r.PrefixHitTokens) / float64(v.Request.PromptTokens)
		if share > 1 {
			return 1
		}
		return share
	})
}

func myScore(w float64) lab.Scorer {
	return lab.Score("short-context", w, func(v *lab.View, r lab.Replica) float64 {
		return 1 / (1 + float64(r.TokensInFlight)/4096)
	})
}

llmd := compareJSON(lab.LLMD())`)
	_, out := exec(t, s, `composed := lab.Scorers(lab.QueueScore(2), lab.KVScore(2), lab.PrefixScore(3))
composed.Name = "llm-d"
interpreted := lab.Scorers(lab.QueueScore(2), lab.KVScore(2), prefix(3))
interpreted.Name = "llm-d"
fmt.Println(compareJSON(composed) == llmd, compareJSON(interpreted) == llmd, interpreted.Kind)`)
	if out != "true true scorers\n" {
		t.Errorf("composed and interpreted llm-d against the built-in: %q, want \"true true scorers\"", out)
	}
	_, out = exec(t, s, `mine := lab.Scorers(lab.QueueScore(2), lab.KVScore(2), lab.PrefixScore(3), myScore(1))
js := compareJSON(mine)
fmt.Println(mine.Name, strings.Contains(js, "\"policy\": \"scorers(queue=2,kv=2,prefix=3,short-context=1)\""), js == llmd)`)
	if out != "scorers(queue=2,kv=2,prefix=3,short-context=1) true false\n" {
		t.Errorf("a fourth scorer from the cell: %q", out)
	}
	if e := fails(t, s, `lab.Scorers(lab.QueueScore(2), lab.KVScore(-1))`); !strings.Contains(e.Error(), "lab.KVScore: weight: -1 is not allowed (want a finite number >= 0)") {
		t.Errorf("a negative weight: %v", e)
	}
	if e := fails(t, s, `myScore(math.NaN())`); !strings.Contains(e.Error(), "lab.Score: weight: NaN is not allowed") {
		t.Errorf("a NaN weight: %v", e)
	}
	bad := `compareJSON(lab.Scorers(lab.QueueScore(1), lab.Score("broken", 1, func(v *lab.View, r lab.Replica) float64 { return math.NaN() })))`
	if e := fails(t, s, bad); !strings.Contains(e.Error(), `scorer "broken" gave NaN for replica 1`) {
		t.Errorf("a NaN score: %v", e)
	}
}
