package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/routelab/routelab/experiment"
	"github.com/spf13/cobra"
)

type studyConfig struct {
	json     bool
	csv      bool
	workers  int
	paired   pairedFlags
	figures  figureFiles
	table    string
	policies []string // policy files whose policies join the validation
	shard    shardFlags
	scripts  policySet // the policy files, loaded
}

func newStudyCmd() *cobra.Command {
	cfg := studyConfig{}
	cmd := &cobra.Command{
		Use:   "study FILE.json",
		Short: "Run the exploration-weight study described by a JSON file",
		Long: `study selects Adaptive's exploration weight c on development seeds (mean per-run
attainment, every condition weighted equally), then validates every policy on separate
seeds. examples/study.json is the specification's protocol: 24 conditions, 6 weights,
8 development seeds (1,152 runs) and 24 validation seeds (576 runs per policy).
--baseline NAME adds the uncertainty: each score's standard error over seeds, the selection
margin (selected minus runner-up weight) with its interval, and each validated policy's paired
differences from NAME.`,
		Example: `  routelab study examples/study.json
  routelab study examples/study.json --csv > runs.csv
  routelab study examples/study.json --baseline latency-aware
  routelab study examples/study.json --policies examples/custom-policy/main.go
  routelab study examples/study.json --shard 2/4 --out dev-2.json                           # round 1
  routelab study examples/study.json --shard 2/4 --development 'dev-*.json' --out val-2.json  # round 2`,
		Args: wantArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error { return cfg.run(cmd, args[0]) },
	}
	cmd.Flags().BoolVar(&cfg.json, "json", false, "write the configuration, scores and every run as JSON")
	cmd.Flags().BoolVar(&cfg.csv, "csv", false, "write every run as CSV")
	cmd.Flags().IntVar(&cfg.workers, "workers", 0, "parallel runs (0: one per CPU); results do not depend on it")
	cfg.paired.bind(cmd, false)
	cmd.MarkFlagsMutuallyExclusive("json", "csv")
	cmd.Flags().StringSliceVar(&cfg.policies, "policies", nil, "policy files FILE.go whose policies the validation phase runs beside the study's own (as compare --policies takes them)")
	cfg.figures.bind(cmd, "study heat-map")
	cmd.Flags().StringVar(&cfg.table, "table", "", "also write the scores (with --baseline, then the paired table) to this file: F.tex (LaTeX, booktabs) or F.md (Markdown)")
	cfg.shard.bind(cmd)
	cfg.shard.bindDevelopment(cmd)
	return cmd
}

func (c *studyConfig) run(cmd *cobra.Command, file string) error {
	if c.table != "" {
		if _, err := tableFormat(c.table); err != nil {
			return err
		}
	}
	if err := c.shard.check(cmd, append([]string{file}, c.policies...)...); err != nil {
		return err
	}
	if err := checkWorkers(c.workers); err != nil {
		return err
	}
	if err := checkOutputs(append(c.figures.outputs(), outFile{"--table", c.table, nil}), append([]string{file}, c.policies...)...); err != nil { // --policies are files
		return err
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	sc, err := experiment.ParseStudy(data, file)
	if err != nil {
		return err
	}
	po, err := c.paired.options(cmd, sc.Policies, len(sc.ValidationSeeds))
	if err != nil {
		return err
	}
	ctx, stop := interruptible(cmd)
	defer stop()
	defer c.scripts.Close()
	if sc, err = c.withScripted(ctx, cmd.ErrOrStderr(), sc); err != nil {
		return err
	}
	if c.shard.spec != "" {
		return c.shard.runStudy(ctx, cmd, sc, &c.scripts, c.workers)
	}
	res, err := experiment.RunStudy(ctx, sc, c.workers, progressReporter(cmd.ErrOrStderr(), "study"))
	if err != nil {
		return err
	}
	var p *experiment.Paired
	if po != nil {
		if p, err = res.Paired(*po); err != nil {
			return err
		}
	}
	return emit(ctx, cmd, outputFlags{json: c.json, csv: c.csv, table: c.table, figures: &c.figures}, studyResult{res, p})
}

// withScripted adds the policies of the policy files to the study's
// validation, after its own.
func (c *studyConfig) withScripted(ctx context.Context, stderr io.Writer, sc experiment.StudyConfig) (experiment.StudyConfig, error) {
	for _, entry := range c.policies {
		if !isPolicyFile(strings.TrimSpace(entry)) {
			return sc, fmt.Errorf("--policies: %q is not a policy file FILE.go (the study's built-in policies are listed in its file)", entry)
		}
	}
	scripted, err := c.scripts.resolve(ctx, c.policies, stderr)
	if err != nil {
		return sc, err
	}
	sc.Policies = slices.Clone(sc.Policies)
	for _, p := range scripted {
		sc.Policies = append(sc.Policies, p.Name)
	}
	sc.Scripted = scripted
	return sc, sc.Validate()
}
