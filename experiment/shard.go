package experiment

import (
	"context"
	"fmt"
	"html"

	"github.com/routelab/routelab/engine"
)

// Shard is one of Count parts of an experiment, numbered from 1. It runs
// every Count-th run of the experiment, starting at run Index-1 (runs are
// numbered from 0 in the experiment's own order: point, policy, seed). So
// each shard gets a mix of the conditions, policies and seeds, the shards'
// sizes differ by at most one run, and together they run every run exactly
// once. A run is a pure function of its spec, so its summary is the same in
// whichever shard it runs: the shards' summaries put back in run order
// (AssembleSweep, AssembleStudy) give the unsharded result byte for byte.
type Shard struct {
	Index int // 1..Count
	Count int
}

// String is the shard as the command line writes it: "2/7".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// HTML shows the shard as its text.
func (s Shard) HTML() string { return "<code>shard " + html.EscapeString(s.String()) + "</code>" }

// Validate requires 1 <= Index <= Count.
func (s Shard) Validate() error {
	if s.Count < 1 {
		return fieldErr("shard", s.String(), "i/n with n >= 1")
	}
	if s.Index < 1 || s.Index > s.Count {
		return fieldErr("shard", s.String(), fmt.Sprintf("i/%d with 1 <= i <= %d", s.Count, s.Count))
	}
	return nil
}

// Size is how many of an experiment's total runs the shard runs.
func (s Shard) Size(total int) int {
	if total < s.Index {
		return 0
	}
	return (total-s.Index)/s.Count + 1
}

// Run is the experiment's number (from 0) of the shard's k-th run.
func (s Shard) Run(k int) int { return s.Index - 1 + k*s.Count }

// checkFor refuses an invalid shard, or one that would run nothing: a split
// into more shards than the experiment has runs is a mistake in the split.
func (s Shard) checkFor(total int) error {
	if err := s.Validate(); err != nil {
		return err
	}
	if s.Count > total {
		return fieldErr("shard", s.String(), fmt.Sprintf("at most %d shards: the experiment has %d runs", total, total))
	}
	return nil
}

// summaries runs the shard's jobs of js and returns their summaries in the
// shard's order. js's own keep is not called: the jobs must drop latencies
// (SummaryOnly), so the shard's memory is its summaries'.
func summaries(ctx context.Context, js jobs, s Shard, workers int, progress func(done, total int)) ([]engine.RunSummary, error) {
	if err := s.checkFor(js.n); err != nil {
		return nil, err
	}
	out := make([]engine.RunSummary, s.Size(js.n))
	err := runJobs(ctx, jobs{
		n:      len(out),
		spec:   func(k int) engine.RunSpec { return js.spec(s.Run(k)) },
		keep:   func(k int, r *engine.RunResult) { out[k] = r.RunSummary },
		runner: js.runner,
	}, workers, progress)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// RunSweepShard runs the shard's runs of the sweep and returns their
// summaries, the k-th being the sweep's run s.Run(k). A shard keeps each
// run's RunSummary and nothing else, whatever sw.Keep says, so its memory
// grows by under 200 bytes a run. Progress counts the shard's runs.
func RunSweepShard(ctx context.Context, sw Sweep, s Shard) ([]engine.RunSummary, error) {
	if err := sw.prepare(); err != nil {
		return nil, err
	}
	sw.Keep = KeepSummaries
	return summaries(ctx, sw.jobs(sw.runner(), nil), s, sw.Workers, sw.Progress)
}

// AssembleSweep builds the sweep's result from the summaries of all its
// runs, in run order (the shards' summaries put back with Shard.Run), as
// RunSweep would have with KeepSummaries. Policies need only their names
// here. Each summary must be of its run's policy and seed, and the
// policies' workloads must agree seed by seed (common random numbers): a
// summary of another experiment is refused.
func AssembleSweep(sw Sweep, runs []engine.RunSummary) (*SweepResult, error) {
	sw.withDefaults()
	if err := sw.validateData(); err != nil {
		return nil, err
	}
	sw.Keep = KeepSummaries
	if total := sw.runs(); len(runs) != total {
		return nil, fmt.Errorf("engine: the sweep has %d runs; got %d summaries", total, len(runs))
	}
	res := sw.newResult()
	for i := range runs {
		pt, pi, si := sw.at(i)
		if err := checkRecord(i, &runs[i], sw.Policies[pi].Name, sw.Points[pt].Scenario.Name, sw.Seeds[si]); err != nil {
			return nil, err
		}
		res.Comparisons[pt].keepRecord(pi, si, runs[i])
	}
	return res, res.finish()
}

// checkRecord requires run i's summary to be of the given policy, scenario
// and seed.
func checkRecord(i int, r *engine.RunSummary, policy, scenario string, seed uint64) error {
	if r.Policy != policy || r.Scenario != scenario || r.Seed != seed {
		return fmt.Errorf("engine: run %d is %s on %s, seed %d, but its summary is of %q on %q, seed %d",
			i, policy, scenario, seed, r.Policy, r.Scenario, r.Seed)
	}
	return nil
}
