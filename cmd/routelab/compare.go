package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
	"github.com/spf13/cobra"
)

// compareConfig holds the flags of `routelab compare`.
type compareConfig struct {
	scenario      string
	scenarioFile  string
	policies      []string
	seeds         int
	firstSeed     uint64
	rate          float64
	heterogeneity string
	speeds        []float64
	queueCap      int
	trace         string
	warmup        float64
	measure       float64
	slo           float64
	workers       int
	json          bool
	csv           bool
	csvSummary    bool
	paired        pairedFlags
	figures       figureFiles
	table         string
	shard         shardFlags
	scripts       policySet // the policy files of --policies, loaded by experiment
}

func newCompareCmd() *cobra.Command {
	cfg := &compareConfig{}
	cmd := &cobra.Command{
		Use:   "compare",
		Short: "Compare routing policies on a scenario over seeded runs",
		Long: fmt.Sprintf(`Compare runs every policy on the same seeds of a scenario (common random numbers:
a seed's workload is identical for every policy) under the specification's protocol —
%d seeds, %g s warm-up, %g s measurement — and prints per-policy medians across seeds with
the observed p99 range. --baseline NAME adds, beside that table, each policy's paired
differences from NAME seed by seed: the mean, its 95%% interval, and the seeds each side won.

`, engine.DefaultSeedCount, float64(engine.DefaultWarmup)/1000, float64(engine.DefaultMeasure)/1000) + `Scenarios: ` + strings.Join(engine.ScenarioNames(), ", ") + `
Policies:  ` + strings.Join(engine.PolicyNames(), ", "),
		Example: `  routelab compare --scenario straggler
  routelab compare --scenario burst --rate 175 --heterogeneity high --json
  routelab compare --scenario steady --policies adaptive,p2c --seeds 30 --csv
  routelab compare --scenario straggler --baseline latency-aware
  routelab compare --scenario-file session.json   # a session saved by routelab console
  routelab compare --scenario straggler --policies least-queue,examples/custom-policy/main.go
  routelab compare --scenario burst --seeds 1000 --shard 3/8 --out shard-3.json`,
		Args: wantArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return cfg.run(cmd) },
	}
	cfg.bind(cmd)
	cmd.Flags().StringVar(&cfg.table, "table", "", "also write the summary table (with --baseline, then the paired table) to this file: F.tex (LaTeX, booktabs) or F.md (Markdown)")
	return cmd
}

// maxSeeds bounds --seeds: a million seeds already hold a gigabyte of
// summaries, and a slip of the keyboard (1000000000) should be refused, not
// end in the machine running out of memory.
const maxSeeds = 1_000_000

// bind declares the flags of a comparison on cmd.
func (cfg *compareConfig) bind(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&cfg.scenario, "scenario", "steady", "built-in scenario: "+strings.Join(engine.ScenarioNames(), ", "))
	f.StringVar(&cfg.scenarioFile, "scenario-file", "", "a scenario file (JSON with a \"scenario\" object, as routelab console saves a session) instead of --scenario")
	f.StringSliceVar(&cfg.policies, "policies", specificationPolicyNames(), "comma-separated policies: built-in names and policy files FILE.go (Go scripts run as exec runs them; their top-level lab.PolicySpec variables, then the other policies they make, join: docs/cli.md, Policy files)")
	f.IntVar(&cfg.seeds, "seeds", engine.DefaultSeedCount, "number of seeds")
	f.Uint64Var(&cfg.firstSeed, "first-seed", 1, "first seed (seeds are consecutive)")
	f.Float64Var(&cfg.rate, "rate", engine.DefaultRate, "base arrival rate, requests per second (a serving scenario's own when not given)")
	f.StringVar(&cfg.heterogeneity, "heterogeneity", "default", "replica speeds: default (8/11/16 ms) or high (6/11/24 ms)")
	f.Float64SliceVar(&cfg.speeds, "speeds", nil, "replica speeds in ms per reference request (overrides --heterogeneity; sets N)")
	f.IntVar(&cfg.queueCap, "queue-cap", engine.DefaultQueueCap, "waiting-queue capacity per replica")
	f.StringVar(&cfg.trace, "trace", "", "replay arrivals from a CSV trace (arrival_ms,prompt_tokens,output_tokens)")
	f.Float64Var(&cfg.warmup, "warmup", engine.DefaultWarmup/1000, "warm-up, seconds")
	f.Float64Var(&cfg.measure, "measure", engine.DefaultMeasure/1000, "measurement window, seconds")
	f.Float64Var(&cfg.slo, "slo", engine.DefaultSLO, "end-to-end SLO, ms")
	f.IntVar(&cfg.workers, "workers", 0, "parallel runs (0: one per CPU); results do not depend on it")
	f.BoolVar(&cfg.json, "json", false, "write the full comparison as JSON")
	f.BoolVar(&cfg.csv, "csv", false, "write per-seed runs as CSV")
	f.BoolVar(&cfg.csvSummary, "csv-summary", false, "write per-policy summaries as CSV")
	cfg.paired.bind(cmd, true)
	cmd.MarkFlagsMutuallyExclusive("json", "csv", "csv-summary", "csv-paired")
	for _, other := range []string{"scenario", "rate", "heterogeneity", "speeds", "queue-cap", "trace"} {
		cmd.MarkFlagsMutuallyExclusive("scenario-file", other) // the file says all of these
	}
	cfg.figures.bind(cmd, "comparison")
	cfg.shard.bind(cmd)
}

// experiment builds the engine experiment the flags describe, loading the
// policy files into c.scripts (stderr gets what they print).
func (c *compareConfig) experiment(ctx context.Context, stderr io.Writer) (experiment.Experiment, error) {
	scn, err := c.buildScenario()
	if err != nil {
		return experiment.Experiment{}, err
	}
	if c.seeds < 1 || c.seeds > maxSeeds {
		return experiment.Experiment{}, fmt.Errorf("--seeds: %d is not allowed (want an integer from 1 to %d)", c.seeds, maxSeeds)
	}
	if last := c.firstSeed + uint64(c.seeds-1); c.firstSeed < 1 || last < c.firstSeed {
		return experiment.Experiment{}, fmt.Errorf("--first-seed: %d is not allowed (want an integer from 1 to %d, so that %d consecutive seeds fit in 64 bits)",
			c.firstSeed, uint64(math.MaxUint64)-uint64(c.seeds-1), c.seeds)
	}
	if err := checkWorkers(c.workers); err != nil {
		return experiment.Experiment{}, err
	}
	proto := engine.Protocol{Warmup: c.warmup * 1000, Measure: c.measure * 1000, SLO: c.slo}
	if err := proto.Validate(); err != nil {
		return experiment.Experiment{}, c.protocolError(err)
	}
	if c.scenarioFile != "" {
		if err := scn.Validate(proto.Horizon()); err != nil {
			return experiment.Experiment{}, fmt.Errorf("%s: %w (a longer run: --warmup, --measure)", c.scenarioFile, err)
		}
	}
	e := experiment.Experiment{
		Scenario: scn,
		Protocol: proto,
		Workers:  c.workers,
		Keep:     c.keep(),
	}
	for i := 0; i < c.seeds; i++ {
		e.Seeds = append(e.Seeds, c.firstSeed+uint64(i))
	}
	e.Policies, err = c.scripts.resolve(ctx, c.policies, stderr)
	return e, err
}

// inputs are the files the flags name for reading.
func (c *compareConfig) inputs() []string {
	in := []string{c.scenarioFile, c.trace}
	for _, p := range c.policies {
		if strings.HasSuffix(p, ".go") {
			in = append(in, p)
		}
	}
	return in
}

// protocolError names the flag, and its value in seconds, that made the
// protocol's field in ms the engine refuses: --warmup -1 is warmup_ms -1000.
func (c *compareConfig) protocolError(err error) error {
	var fe *engine.FieldError
	if errors.As(err, &fe) {
		switch fe.Field {
		case "warmup_ms":
			return fmt.Errorf("--warmup %g (seconds): %w", c.warmup, err)
		case "measure_ms":
			return fmt.Errorf("--measure %g (seconds): %w", c.measure, err)
		case "warmup_ms + measure_ms":
			return fmt.Errorf("--warmup %g + --measure %g (seconds): %w", c.warmup, c.measure, err)
		}
	}
	return err
}

// checkWorkers refuses a negative --workers, which would otherwise mean
// one per CPU as 0 does.
func checkWorkers(n int) error {
	if n < 0 {
		return fmt.Errorf("--workers: %d is not allowed (want an integer >= 0; 0: one per CPU)", n)
	}
	return nil
}

// scenarioRate takes the built-in scenario's usual rate when --rate is not
// given: 100 req/s for the specification's, less for the serving ones.
func (c *compareConfig) scenarioRate(cmd *cobra.Command) {
	if r := engine.ScenarioRate(c.scenario); r > 0 && !cmd.Flags().Changed("rate") {
		c.rate = r
	}
}

// buildScenario is the scenario file's, or the built-in scenario changed
// by the flags.
func (c *compareConfig) buildScenario() (engine.Scenario, error) {
	if c.scenarioFile != "" {
		data, err := os.ReadFile(c.scenarioFile)
		if err != nil {
			return engine.Scenario{}, err
		}
		f, err := engine.ParseScenarioFile(data, c.scenarioFile)
		return f.Scenario, err
	}
	scn, err := engine.BuiltinScenario(c.scenario, c.rate, engine.Heterogeneity(c.heterogeneity))
	if err != nil {
		return engine.Scenario{}, err
	}
	if len(c.speeds) > 0 {
		scn.Speeds = c.speeds
	}
	scn.QueueCap = c.queueCap
	if c.trace != "" {
		data, err := os.ReadFile(c.trace)
		if err != nil {
			return engine.Scenario{}, err
		}
		if scn.Trace, err = engine.ReadTrace(strings.NewReader(string(data)), c.trace); err != nil {
			return engine.Scenario{}, err
		}
		scn.Arrivals = engine.Replay
	}
	return scn, nil
}

// keep is what the command keeps of each run: only its summary, so memory
// does not grow with the requests of every run, unless a figure is asked
// for — the figures draw every run, the report its latency distribution.
func (c *compareConfig) keep() experiment.Keep {
	if c.figures.any() {
		return experiment.KeepRuns
	}
	return experiment.KeepSummaries
}

func (c *compareConfig) run(cmd *cobra.Command) error {
	if c.table != "" {
		if _, err := tableFormat(c.table); err != nil {
			return err
		}
	}
	if err := c.shard.check(cmd, c.inputs()...); err != nil {
		return err
	}
	if err := checkOutputs(append(c.figures.outputs(), outFile{"--table", c.table, nil}), c.inputs()...); err != nil {
		return err
	}
	ctx, stop := interruptible(cmd)
	defer stop()
	defer c.scripts.Close()
	c.scenarioRate(cmd)
	e, err := c.experiment(ctx, cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	po, err := c.paired.options(cmd, specNames(e.Policies), len(e.Seeds))
	if err != nil {
		return err
	}
	if c.shard.spec != "" {
		return c.shard.runSweep(ctx, cmd, "compare", e.Sweep(), &c.scripts)
	}
	e.Progress = progressReporter(cmd.ErrOrStderr(), "compare")
	res, err := experiment.Compare(ctx, e)
	if err != nil {
		return err
	}
	var p *experiment.Paired
	if po != nil {
		if p, err = res.Paired(*po); err != nil {
			return err
		}
	}
	return emit(ctx, cmd, c.outputs(), comparisonResult{res, p})
}

// outputs are the output flags of a comparison.
func (c *compareConfig) outputs() outputFlags {
	return outputFlags{json: c.json, csv: c.csv, csvSummary: c.csvSummary, csvPaired: c.paired.csv, table: c.table, figures: &c.figures}
}

// specificationPolicyNames names the specification's four policies, the
// default of --policies.
func specificationPolicyNames() []string {
	var names []string
	for _, p := range engine.SpecificationPolicies() {
		names = append(names, p.Name)
	}
	return names
}
