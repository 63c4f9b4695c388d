package experiment

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/internal/record"
)

// The shards of a split run every run exactly once, and their sizes differ
// by at most one run.
func TestShardsCoverEveryRunOnce(t *testing.T) {
	for total := 1; total <= 40; total++ {
		for count := 1; count <= total; count++ {
			seen := make([]int, total)
			lo, hi := total, 0
			for index := 1; index <= count; index++ {
				s := Shard{Index: index, Count: count}
				n := s.Size(total)
				lo, hi = min(lo, n), max(hi, n)
				for k := range n {
					seen[s.Run(k)]++
				}
			}
			for i, c := range seen {
				if c != 1 {
					t.Fatalf("%d runs in %d shards: run %d runs %d times", total, count, i, c)
				}
			}
			if hi-lo > 1 {
				t.Fatalf("%d runs in %d shards: sizes from %d to %d", total, count, lo, hi)
			}
		}
	}
}

func TestShardErrors(t *testing.T) {
	for _, c := range []struct {
		s    Shard
		want string
	}{
		{Shard{0, 3}, `shard: "0/3" is not allowed (want i/3 with 1 <= i <= 3)`},
		{Shard{4, 3}, `shard: "4/3" is not allowed (want i/3 with 1 <= i <= 3)`},
		{Shard{1, 0}, `shard: "1/0" is not allowed (want i/n with n >= 1)`},
		{Shard{-1, -1}, `shard: "-1/-1" is not allowed (want i/n with n >= 1)`},
	} {
		if err := c.s.Validate(); err == nil || err.Error() != c.want {
			t.Errorf("%v: %v, want %q", c.s, err, c.want)
		}
	}
	sw := smallSweep(t)
	_, err := RunSweepShard(context.Background(), sw, Shard{Index: 1, Count: 100})
	if err == nil || !strings.Contains(err.Error(), `shard: "1/100" is not allowed (want at most 36 shards: the experiment has 36 runs)`) {
		t.Errorf("more shards than runs: %v", err)
	}
}

// smallSweep has 2 points × 3 policies (one with its own random stream) ×
// 6 seeds = 36 runs.
func smallSweep(t testing.TB) Sweep {
	return Sweep{
		XLabel: "rate", XName: "rate_rps",
		Points:   RateSweep(mustScenario(t, "failure", 100, engine.HighHeterogeneity), 120, 240),
		Policies: []engine.PolicySpec{engine.LeastQueue(), engine.PowerOfTwo(), engine.Adaptive(engine.DefaultAdaptiveParams())},
		Seeds:    []uint64{3, 1, 4, 15, 9, 2},
	}
}

// split runs every shard of a split into count shards, each on its own
// number of workers, and puts the summaries back in run order.
func split(t *testing.T, total, count int, run func(s Shard, workers int) ([]engine.RunSummary, error)) []engine.RunSummary {
	t.Helper()
	out := make([]engine.RunSummary, total)
	for index := 1; index <= count; index++ {
		s := Shard{Index: index, Count: count}
		got, err := run(s, 1+index%3)
		if err != nil {
			t.Fatalf("shard %v: %v", s, err)
		}
		if len(got) != s.Size(total) {
			t.Fatalf("shard %v: %d summaries, want %d", s, len(got), s.Size(total))
		}
		for k := range got {
			out[s.Run(k)] = got[k]
		}
	}
	return out
}

// writers are every output of a sweep, as the commands write them.
func sweepOutputs(t *testing.T, res *SweepResult) string {
	t.Helper()
	var b bytes.Buffer
	for _, write := range []func() error{
		func() error { return res.WriteJSON(&b) },
		func() error { return res.WriteCSV(&b) },
		func() error { return record.WriteCSV(&b, res.SummaryRecords()) },
		func() error {
			for _, c := range res.Comparisons {
				if err := c.WriteText(&b); err != nil {
					return err
				}
			}
			return nil
		},
	} {
		if err := write(); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

// A sweep split into 1, 2, 3 and 7 shards and assembled gives every output
// of the unsharded sweep byte for byte, whatever each shard's workers.
func TestShardedSweepEqualsUnsharded(t *testing.T) {
	sw := smallSweep(t)
	whole, err := RunSweep(context.Background(), sw)
	if err != nil {
		t.Fatal(err)
	}
	want := sweepOutputs(t, whole)
	for _, count := range []int{1, 2, 3, 7} {
		runs := split(t, 36, count, func(s Shard, workers int) ([]engine.RunSummary, error) {
			sw := sw
			sw.Workers = workers
			return RunSweepShard(context.Background(), sw, s)
		})
		names := sw
		names.Policies = nil
		for _, p := range sw.Policies {
			names.Policies = append(names.Policies, engine.PolicySpec{Name: p.Name}) // no constructors: merging runs nothing
		}
		res, err := AssembleSweep(names, runs)
		if err != nil {
			t.Fatalf("%d shards: %v", count, err)
		}
		if got := sweepOutputs(t, res); got != want {
			t.Errorf("%d shards: outputs differ from the unsharded sweep at %s", count, firstDiff(got, want))
		}
	}
}

func firstDiff(a, b string) string {
	for i := 0; i < min(len(a), len(b)); i++ {
		if a[i] != b[i] {
			return fmt.Sprintf("byte %d: %q vs %q", i, a[max(0, i-30):min(len(a), i+30)], b[max(0, i-30):min(len(b), i+30)])
		}
	}
	return fmt.Sprintf("the end: %d vs %d bytes", len(a), len(b))
}

// Assembling refuses summaries that are not the sweep's runs in run order.
func TestAssembleSweepRefusesOtherRuns(t *testing.T) {
	sw := smallSweep(t)
	runs, err := RunSweepShard(context.Background(), sw, Shard{Index: 1, Count: 1})
	if err != nil {
		t.Fatal(err)
	}
	swapped := append([]engine.RunSummary(nil), runs...)
	swapped[0], swapped[1] = swapped[1], swapped[0]
	otherPoint := append([]engine.RunSummary(nil), runs...)
	otherPoint[0], otherPoint[18] = otherPoint[18], otherPoint[0] // same policy and seed, other rate
	for _, c := range []struct {
		runs []engine.RunSummary
		want string
	}{
		{runs[:35], "the sweep has 36 runs; got 35 summaries"},
		{swapped, `run 0 is least-queue on failure, seed 3, but its summary is of "least-queue" on "failure", seed 1`},
		{otherPoint, "seed 3 gave policy \"p2c\" a different workload than \"least-queue\""},
	} {
		if _, err := AssembleSweep(sw, c.runs); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v, want an error containing %q", err, c.want)
		}
	}
}

// smallShardStudy has 2 conditions, 3 weights × 2 development seeds (12 runs)
// and 3 policies × 3 validation seeds (18 runs), one policy not a built-in.
func smallShardStudy() StudyConfig {
	mine := engine.LeastQueue()
	mine.Name = "my-least-queue"
	return StudyConfig{
		Name: "small", Rates: []float64{150}, Heterogeneity: []string{"default", "high"},
		Scenarios: []string{"straggler"}, Weights: []float64{0, 0.35, 0.1},
		DevelopmentSeeds: []uint64{1, 2}, ValidationSeeds: []uint64{11, 12, 13},
		Policies: []string{"round-robin", "adaptive", "my-least-queue"}, Protocol: engine.DefaultProtocol(),
		Scripted: []engine.PolicySpec{mine},
	}
}

// A study run in two rounds of 1, 2, 3 and 7 shards — the development
// phase, then the validation phase at the weight its summaries select —
// and assembled gives the unsharded study byte for byte.
func TestShardedStudyEqualsUnsharded(t *testing.T) {
	cfg := smallShardStudy()
	whole, err := RunStudy(context.Background(), cfg, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := studyOutputs(t, whole)
	ctx := context.Background()
	for _, count := range []int{1, 2, 3, 7} {
		dev := split(t, 12, count, func(s Shard, workers int) ([]engine.RunSummary, error) {
			return RunStudyDevelopment(ctx, cfg, s, workers, nil)
		})
		selected, err := SelectWeight(cfg, dev)
		if err != nil || selected != whole.SelectedC {
			t.Fatalf("%d shards: selected %v (%v), want %v", count, selected, err, whole.SelectedC)
		}
		attainment := make([]float64, len(dev))
		for i := range dev {
			attainment[i] = dev[i].Attainment
		}
		if from, err := SelectWeightFrom(cfg, attainment); err != nil || from != selected {
			t.Fatalf("%d shards: SelectWeightFrom the attainments selects %v (%v), SelectWeight %v", count, from, err, selected)
		}
		val := split(t, 18, count, func(s Shard, workers int) ([]engine.RunSummary, error) {
			return RunStudyValidation(ctx, cfg, selected, s, workers, nil)
		})
		names := cfg
		names.Scripted = []engine.PolicySpec{{Name: "my-least-queue"}}
		res, err := AssembleStudy(names, dev, val)
		if err != nil {
			t.Fatalf("%d shards: %v", count, err)
		}
		res.Config = cfg // the scripted policy's constructor is not part of any output
		if got := studyOutputs(t, res); got != want {
			t.Errorf("%d shards: outputs differ from the unsharded study at %s", count, firstDiff(got, want))
		}
	}
}

func studyOutputs(t *testing.T, res *StudyResult) string {
	t.Helper()
	var b bytes.Buffer
	if err := res.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if err := res.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestStudyShardErrors(t *testing.T) {
	cfg := smallShardStudy()
	ctx := context.Background()
	if _, err := RunStudyValidation(ctx, cfg, 0.2, Shard{1, 1}, 0, nil); err == nil ||
		!strings.Contains(err.Error(), "selected weight: 0.2 is not allowed (want one of the study's weights, 0 0.35 0.1)") {
		t.Errorf("a weight the study does not have: %v", err)
	}
	if _, err := RunStudyDevelopment(ctx, cfg, Shard{1, 13}, 0, nil); err == nil || !strings.Contains(err.Error(), "at most 12 shards") {
		t.Errorf("13 shards of 12 runs: %v", err)
	}
	noNew := cfg
	noNew.Scripted = []engine.PolicySpec{{Name: "my-least-queue"}}
	if _, err := RunStudyDevelopment(ctx, noNew, Shard{1, 1}, 0, nil); err == nil || !strings.Contains(err.Error(), "a named policy with a constructor") {
		t.Errorf("a scripted policy without a constructor: %v", err)
	}
	dev, err := RunStudyDevelopment(ctx, cfg, Shard{1, 1}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := AssembleStudy(cfg, dev, dev); err == nil || !strings.Contains(err.Error(), "the study's validation phase has 18 runs; got 12 summaries") {
		t.Errorf("development summaries given as validation: %v", err)
	}
	for _, c := range []struct {
		edit func(*StudyConfig)
		want string
	}{
		{func(c *StudyConfig) { c.Policies = c.Policies[:2] }, `scripted[0]: "my-least-queue" is not allowed (want a policy named in policies)`},
		{func(c *StudyConfig) {
			c.Scripted[0].Name = "adaptive"
			c.Policies = c.Policies[:2]
		}, `scripted[0]: "adaptive" is not allowed (want a name no built-in policy has)`},
		{func(c *StudyConfig) { c.Scripted = nil }, `policy: "my-least-queue" is not allowed (want one of round-robin`},
		{func(c *StudyConfig) { c.Scripted[0].Name = "least-queue"; c.Policies[2] = "least-queue" }, `scripted[0]: "least-queue" is not allowed (want a name no built-in policy has)`},
		{func(c *StudyConfig) { c.Scripted = append(c.Scripted, c.Scripted[0]) }, `scripted[1]: "my-least-queue" is not allowed (want distinct policy names`},
	} {
		bad := smallShardStudy()
		c.edit(&bad)
		if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v, want an error containing %q", err, c.want)
		}
	}
}

// SelectWeightFrom reads each attainment as its run's: runs are weight by
// weight, so the weight whose runs alone score 1 is selected.
func TestSelectWeightFrom(t *testing.T) {
	cfg := smallShardStudy() // 3 weights × 2 conditions × 2 seeds
	for w := range cfg.Weights {
		att := make([]float64, 12)
		for i := w * 4; i < w*4+4; i++ {
			att[i] = 1
		}
		if got, err := SelectWeightFrom(cfg, att); err != nil || got != cfg.Weights[w] {
			t.Errorf("weight %d's runs at 1: selected %v (%v), want %v", w, got, err, cfg.Weights[w])
		}
	}
	if _, err := SelectWeightFrom(cfg, make([]float64, 11)); err == nil || !strings.Contains(err.Error(), "has 12 runs; got 11 attainments") {
		t.Errorf("11 attainments: %v", err)
	}
}

// SelectWeightFrom, which scores the attainments in place, selects what
// SelectWeight selects from the same runs' summaries: over random
// attainments with missing ones (NaN), whole conditions missing, and ties
// between weights (the first listed wins).
func TestSelectWeightFromMatchesSelectWeight(t *testing.T) {
	cfg := smallShardStudy()
	cfg.Rates = []float64{100, 150}
	cfg.Weights = []float64{0.2, 0, 0.35, 0.1}
	cfg.DevelopmentSeeds = []uint64{1, 2, 3}
	g, ph := cfg.layout(), cfg.developmentPhase()
	n := g.jobs(ph).n
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := range 300 {
		att := make([]float64, n)
		for i := range att {
			switch r := rng.IntN(10); {
			case r == 0:
				att[i] = math.NaN()
			case r < 4:
				att[i] = float64(rng.IntN(3)) / 2 // ties
			default:
				att[i] = rng.Float64()
			}
		}
		if trial%7 == 0 { // a condition with no attainment at all
			from := rng.IntN(n/len(cfg.DevelopmentSeeds)) * len(cfg.DevelopmentSeeds)
			for i := range cfg.DevelopmentSeeds {
				att[from+i] = math.NaN()
			}
		}
		if trial%11 == 0 { // every weight's runs alike: a tie the first weight wins
			perWeight := n / len(cfg.Weights)
			for i := perWeight; i < n; i++ {
				att[i] = att[i%perWeight]
			}
		}
		sums := make([]engine.RunSummary, n)
		for i := range sums {
			pi, ci, si := g.at(ph, i)
			sums[i] = engine.RunSummary{Policy: ph.policies[pi].Name, Scenario: g.scenarios[ci].Name, Seed: ph.seeds[si], Attainment: att[i]}
		}
		want, err := SelectWeight(cfg, sums)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := SelectWeightFrom(cfg, att); err != nil || got != want {
			t.Fatalf("trial %d: SelectWeightFrom selects %v (%v), SelectWeight %v", trial, got, err, want)
		}
	}
}

// A shard's memory is its runs' summaries, never their latencies, whatever
// the sweep's Keep says: after 480 runs of about 2,200 completed requests
// each (about 18 KB of latencies a run, 8.6 MB in all), the heap it leaves
// holds about a hundred bytes a run (under a tenth of the latencies).
func TestShardKeepsSummariesNotLatencies(t *testing.T) {
	scn, err := engine.BuiltinScenario("burst", 150, engine.DefaultHeterogeneity)
	if err != nil {
		t.Fatal(err)
	}
	sw := Sweep{XLabel: "x", XName: "x", Points: []SweepPoint{{Label: "burst", Scenario: scn}},
		Policies: []engine.PolicySpec{engine.RoundRobin(), engine.LeastQueue()}, Protocol: engine.DefaultProtocol(), Keep: KeepRuns, Workers: 1}
	for s := range 240 {
		sw.Seeds = append(sw.Seeds, uint64(s+1))
	}
	heap := func() uint64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	runs, err := RunSweepShard(context.Background(), sw, Shard{Index: 1, Count: 1})
	if err != nil {
		t.Fatal(err)
	}
	kept := int64(heap()) - int64(before)
	completed := 0
	for _, r := range runs {
		completed += r.Completed
	}
	if latencies := int64(completed) * 8; kept > latencies/10 {
		t.Errorf("%d runs leave %d bytes on the heap (%d a run); their latencies alone are %d bytes", len(runs), kept, kept/int64(len(runs)), latencies)
	}
	t.Logf("%d runs, %d completed requests: %d bytes kept, %d a run", len(runs), completed, kept, kept/int64(len(runs)))
}
