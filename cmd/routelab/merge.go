package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
	"github.com/spf13/cobra"
)

// mergeConfig holds the flags of `routelab merge`: the outputs of the
// command that made the shards.
type mergeConfig struct {
	json       bool
	csv        bool
	csvSummary bool
	table      string
	out        string
	paired     pairedFlags
	figures    figureFiles
}

func newMergeCmd() *cobra.Command {
	cfg := &mergeConfig{}
	cmd := &cobra.Command{
		Use:   "merge SHARD.json…",
		Short: "Assemble the shard files of a sharded compare, sweep or study into its result",
		Long: `merge reads the files that compare, sweep or study wrote with --shard i/n --out FILE,
checks that they are every shard of one experiment made by one build, and writes what the
unsharded command would have: the same table, --json, --csv and --csv-summary, byte for byte.
A study's shards run in two rounds (development, then validation with --development): give
merge both. Arguments with *, ? or [ are patterns merge expands itself.

--baseline NAME adds the paired statistics, as the unsharded command's --baseline does.

Figures are drawn from each run's summary, as shards keep no latencies: the comparison,
sweep and study figures are the unsharded command's, byte for byte; the --html report of a
comparison leaves out the latency CDF, and says so.`,
		Example: `  routelab merge shard-*.json
  routelab merge 'out/shard-*.json' --json > comparison.json
  routelab merge dev-*.json val-*.json --table study.txt --html study.html`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cfg.run(cmd, args) },
	}
	f := cmd.Flags()
	f.BoolVar(&cfg.json, "json", false, "write the result as JSON")
	f.BoolVar(&cfg.csv, "csv", false, "write every run as CSV")
	f.BoolVar(&cfg.csvSummary, "csv-summary", false, "write per-policy summaries as CSV (compare and sweep)")
	f.StringVar(&cfg.table, "table", "", "also write the table to this file: F.tex (LaTeX, booktabs) or F.md (Markdown) as compare and study write them, any other name the text table")
	f.StringVar(&cfg.out, "out", "", "write the output (the table, --json, --csv or --csv-summary) to this file instead of standard output (for a container without a shell)")
	cfg.paired.bind(cmd, true)
	cmd.MarkFlagsMutuallyExclusive("json", "csv", "csv-summary", "csv-paired")
	cfg.figures.bind(cmd, "result's")
	return cmd
}

func (m *mergeConfig) run(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return errors.New("merge: no shard files given (want routelab merge SHARD.json…, the files of compare|sweep|study --shard i/n --out FILE)")
	}
	shards, err := readShards(args)
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	if err := sameExperiment(shards); err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	var inputs []string
	for _, s := range shards {
		inputs = append(inputs, s.name)
	}
	if err := checkOutputs(append(m.figures.outputs(), outFile{"--out", m.out, nil}, outFile{"--table", m.table, nil}), inputs...); err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	res, err := m.assemble(shards, cmd.ErrOrStderr())
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	po, err := m.paired.options(cmd, res.policies, res.seeds)
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	if po != nil && m.paired.csv && shards[0].Config.Command == "study" {
		return errors.New("merge: --csv-paired: a study writes its paired statistics in the text table or --json")
	}
	r, err := res.result(po)
	if err != nil {
		return err
	}
	return emit(cmd.Context(), cmd, outputFlags{json: m.json, csv: m.csv, csvSummary: m.csvSummary, csvPaired: m.paired.csv,
		table: m.table, textTable: true, out: m.out, figures: &m.figures}, r)
}

// merged is an assembled result, ready to be written as its command
// would have.
type merged struct {
	// result is the command's result with the paired statistics po asks
	// for (none when nil).
	result func(po *experiment.PairedOptions) (result, error)
	// policies and seeds are what --baseline is checked against.
	policies []string
	seeds    int
}

// assemble puts the shards' runs back together into their command's result.
func (m *mergeConfig) assemble(shards []loadedShard, stderr io.Writer) (*merged, error) {
	cfg := &shards[0].Config
	if cfg.Command == "study" {
		return m.study(shards)
	}
	runs, err := phaseRuns(shards)
	if err != nil {
		return nil, err
	}
	res, err := experiment.AssembleSweep(cfg.Sweep(), runs)
	if err != nil {
		return nil, err
	}
	if m.figures.any() {
		withSummaryRuns(res)
	}
	sw := cfg.Sweep()
	policies, seeds := specNames(sw.Policies), len(sw.Seeds)
	if cfg.Command == "sweep" {
		return &merged{
			result: func(po *experiment.PairedOptions) (result, error) {
				var p *experiment.SweepPaired
				if po != nil {
					var err error
					if p, err = res.Paired(*po); err != nil {
						return nil, err
					}
				}
				return sweepResult{res, p}, nil
			},
			policies: policies, seeds: seeds,
		}, nil
	}
	cmp := res.Comparisons[0]
	if m.figures.html != "" {
		fmt.Fprintln(stderr, "merge: the report leaves out the latency CDF: shards keep each run's summary, not its latencies")
	}
	return &merged{
		result: func(po *experiment.PairedOptions) (result, error) {
			var p *experiment.Paired
			if po != nil {
				var err error
				if p, err = cmp.Paired(*po); err != nil {
					return nil, err
				}
			}
			return comparisonResult{cmp, p}, nil
		},
		policies: policies, seeds: seeds,
	}, nil
}

// study assembles a study from its two rounds of shards: the development
// shards select the weight, which every validation shard must have run.
func (m *mergeConfig) study(shards []loadedShard) (*merged, error) {
	if m.csvSummary {
		return nil, errors.New("--csv-summary: a study has no per-policy summary CSV (want --json or --csv)")
	}
	var dev, val []loadedShard
	for _, sh := range shards {
		if sh.Phase == "development" {
			dev = append(dev, sh)
		} else {
			val = append(val, sh)
		}
	}
	if len(dev) == 0 || len(val) == 0 {
		return nil, fmt.Errorf("a study needs its development and its validation shards; %s are %s shards only (the validation round runs with --development)", cutNames(names(shards)), shards[0].Phase)
	}
	sc := shards[0].Config.StudyConfig()
	devRuns, err := phaseRuns(dev)
	if err != nil {
		return nil, fmt.Errorf("development: %w", err)
	}
	valRuns, err := phaseRuns(val)
	if err != nil {
		return nil, fmt.Errorf("validation: %w", err)
	}
	selected, err := experiment.SelectWeight(sc, devRuns)
	if err != nil {
		return nil, err
	}
	for _, sh := range val {
		if *sh.Selected != selected {
			return nil, fmt.Errorf("%s ran the validation with c = %g, but the development shards %s select c = %g", sh.name, *sh.Selected, cutNames(names(dev)), selected)
		}
	}
	res, err := experiment.AssembleStudy(sc, devRuns, valRuns)
	if err != nil {
		return nil, err
	}
	return &merged{
		result: func(po *experiment.PairedOptions) (result, error) {
			var p *experiment.Paired
			if po != nil {
				var err error
				if p, err = res.Paired(*po); err != nil {
					return nil, err
				}
			}
			return studyResult{res, p}, nil
		},
		policies: sc.Policies, seeds: len(sc.ValidationSeeds),
	}, nil
}

// withSummaryRuns gives each policy of each point a run per seed made of
// its summary alone: what the summary-based figures draw. Shards keep no
// latencies, per-replica counts or events, so a figure that needs them
// (the latency CDF) has nothing to draw and is left out.
func withSummaryRuns(res *experiment.SweepResult) {
	for _, c := range res.Comparisons {
		for i := range c.Policies {
			p := &c.Policies[i]
			p.Runs = make([]*engine.RunResult, len(p.Records))
			for k := range p.Records {
				p.Runs[k] = &engine.RunResult{RunSummary: p.Records[k]}
			}
		}
	}
}
