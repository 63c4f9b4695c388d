package experiment

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/routelab/routelab/engine"
)

func richExperiment() Experiment {
	return Experiment{Scenario: richServing(9), Policies: []engine.PolicySpec{engine.LeastQueue(), engine.PowerOfTwo(), engine.LeastKV(), engine.JoinIdleQueue()},
		Seeds: DefaultSeeds(3), Protocol: engine.Protocol{Warmup: 10000, Measure: 60000, SLO: 1e5}}
}

// A serving comparison gives the same bytes whatever the parallelism:
// GOMAXPROCS 1 and 4, and five workers.
func TestServingResultsIndependentOfParallelism(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	runtime.GOMAXPROCS(1)
	one := compareJSON(t, richExperiment())
	runtime.GOMAXPROCS(4)
	four := compareJSON(t, richExperiment())
	e := richExperiment()
	e.Workers = 5
	five := compareJSON(t, e)
	if !bytes.Equal(one, four) || !bytes.Equal(one, five) {
		t.Fatal("serving results depend on GOMAXPROCS or the number of workers")
	}
	if !bytes.Contains(one, []byte(`"ttft_p99_ms"`)) || !bytes.Contains(one, []byte(`"serving"`)) {
		t.Fatalf("the serving comparison's JSON lacks its serving figures:\n%.2000s", one)
	}
}
