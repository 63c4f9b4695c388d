package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
	"github.com/routelab/routelab/plot"
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
	if res.po, err = m.paired.options(cmd, res.policies, res.seeds); err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	if res.po != nil && m.paired.csv && shards[0].Config.Command == "study" {
		return errors.New("merge: --csv-paired: a study writes its paired statistics in the text table or --json")
	}
	return m.write(cmd, res)
}

// merged is an assembled result with the writers of its command.
type merged struct {
	// write writes what the command writes with the output flags of c and
	// the paired statistics po asks for (none when nil).
	write func(w io.Writer, c *compareConfig, po *experiment.PairedOptions) error
	// policies and seeds are what --baseline is checked against.
	policies []string
	seeds    int
	po       *experiment.PairedOptions
	figure   func() (*plot.Figure, error)
	page     func(*plot.Figure) ([]byte, error)
	// tables writes the result's LaTeX or Markdown tables, as the command's
	// --table F.tex|F.md does; nil for a sweep, which has none.
	tables func(format string, po *experiment.PairedOptions) (string, error)
}

// withPaired appends the paired table po asks for (none when nil).
func withPaired(table string, po *experiment.PairedOptions, paired func(experiment.PairedOptions) (*experiment.Paired, error), format string) (string, error) {
	if po == nil {
		return table, nil
	}
	p, err := paired(*po)
	if err != nil {
		return "", err
	}
	t, err := plot.PairedTableAs(p, format)
	return table + "\n" + t, err
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
			write: func(w io.Writer, c *compareConfig, po *experiment.PairedOptions) error {
				var p *experiment.SweepPaired
				if po != nil {
					var err error
					if p, err = res.Paired(*po); err != nil {
						return err
					}
				}
				return (&sweepConfig{compareConfig: *c}).write(w, res, p)
			},
			policies: policies, seeds: seeds,
			figure: func() (*plot.Figure, error) { return plot.RateSweep(res) },
			page:   singlePage,
		}, nil
	}
	cmp := res.Comparisons[0]
	if m.figures.html != "" {
		fmt.Fprintln(stderr, "merge: the report leaves out the latency CDF: shards keep each run's summary, not its latencies")
	}
	return &merged{
		write: func(w io.Writer, c *compareConfig, po *experiment.PairedOptions) error {
			var p *experiment.Paired
			if po != nil {
				var err error
				if p, err = cmp.Paired(*po); err != nil {
					return err
				}
			}
			return c.write(w, cmp, p)
		},
		policies: policies, seeds: seeds,
		tables: func(format string, po *experiment.PairedOptions) (string, error) {
			t, err := plot.ComparisonTableAs(cmp, format)
			if err != nil {
				return "", err
			}
			return withPaired(t, po, cmp.Paired, format)
		},
		figure: func() (*plot.Figure, error) { return plot.Comparison(cmp) },
		page: func(*plot.Figure) ([]byte, error) {
			r, err := plot.Report(cmp)
			if err != nil {
				return nil, err
			}
			return r.Render()
		},
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
		write: func(w io.Writer, c *compareConfig, po *experiment.PairedOptions) error {
			var p *experiment.Paired
			if po != nil {
				var err error
				if p, err = res.Paired(*po); err != nil {
					return err
				}
			}
			return (&studyConfig{json: c.json, csv: c.csv}).write(w, res, p)
		},
		policies: sc.Policies, seeds: len(sc.ValidationSeeds),
		tables: func(format string, po *experiment.PairedOptions) (string, error) {
			t, err := plot.StudyTableAs(res, format)
			if err != nil {
				return "", err
			}
			return withPaired(t, po, res.Paired, format)
		},
		figure: func() (*plot.Figure, error) { return plot.StudyHeatmap(res) },
		page:   singlePage,
	}, nil
}

// write writes the chosen output to stdout, the table to --table and the
// figures, as the command would have.
func (m *mergeConfig) write(cmd *cobra.Command, res *merged) error {
	var table []byte // made first, so that a refused --table writes nothing
	if m.table != "" {
		var err error
		if table, err = m.tableText(res); err != nil {
			return err
		}
	}
	chosen := &compareConfig{json: m.json, csv: m.csv, csvSummary: m.csvSummary, paired: m.paired}
	if m.out == "" {
		if err := res.write(cmd.OutOrStdout(), chosen, res.po); err != nil {
			return err
		}
	} else if err := writeStreamed(cmd.ErrOrStderr(), m.out, func(w io.Writer) error { return res.write(w, chosen, res.po) }); err != nil {
		return err
	}
	if m.table != "" {
		if err := writeFile(cmd.ErrOrStderr(), m.table, table); err != nil {
			return err
		}
	}
	return m.figures.export(cmd.Context(), cmd.ErrOrStderr(), res.figure, res.page)
}

// tableText is what --table writes: by its extension LaTeX (.tex) or
// Markdown (.md), as compare and study write them, or else the text table
// the command prints.
func (m *mergeConfig) tableText(res *merged) ([]byte, error) {
	ext := strings.ToLower(filepath.Ext(m.table))
	if ext != ".tex" && ext != ".md" {
		var b bytes.Buffer
		err := res.write(&b, &compareConfig{}, res.po)
		return b.Bytes(), err
	}
	if res.tables == nil {
		return nil, fmt.Errorf("--table %s: a sweep has no LaTeX or Markdown table (want a .txt file for its text table)", m.table)
	}
	format, err := tableFormat(m.table)
	if err != nil {
		return nil, err
	}
	t, err := res.tables(format, res.po)
	return []byte(t), err
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
