package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
	"github.com/spf13/cobra"
)

// pairedFlags are the flags that add paired statistics to compare, sweep
// and study: without --baseline every output keeps its bytes.
type pairedFlags struct {
	baseline  string
	bootstrap bool
	metrics   []string
	csv       bool // --csv-paired; compare and sweep only
}

// bind declares the flags; withCSV adds --csv-paired.
func (f *pairedFlags) bind(cmd *cobra.Command, withCSV bool) {
	fl := cmd.Flags()
	fl.StringVar(&f.baseline, "baseline", "", "also report each policy's paired differences from this one, seed by seed: mean, 95% interval, wins (2+ seeds)")
	fl.BoolVar(&f.bootstrap, "bootstrap", false, "with --baseline: bootstrap percentile intervals (10,000 seeded resamples) instead of t-intervals")
	fl.StringSliceVar(&f.metrics, "metrics", nil, "with --baseline: the metrics paired, by record name (p95_ms, ttft_p90_ms, shed_rate, …; routelab list gives them all); default p99_ms, p90_ms, attainment, goodput_rps, shed, and for a serving scenario ttft_p99_ms, itl_p99_ms, serving_attainment, serving_goodput_rps, shed")
	if withCSV {
		fl.BoolVar(&f.csv, "csv-paired", false, "with --baseline: write the paired statistics as CSV")
	}
}

// options returns the paired comparison the flags ask for, checked against
// the policies and the number of seeds before anything runs; nil without
// --baseline. A format that cannot carry the statistics (the per-run and
// summary CSVs) is refused rather than silently dropping them.
func (f *pairedFlags) options(cmd *cobra.Command, policies []string, seeds int) (*experiment.PairedOptions, error) {
	if f.baseline == "" {
		switch {
		case f.bootstrap:
			return nil, errors.New("--bootstrap needs --baseline NAME")
		case f.metrics != nil:
			return nil, errors.New("--metrics needs --baseline NAME")
		case f.csv:
			return nil, errors.New("--csv-paired needs --baseline NAME")
		}
		return nil, nil
	}
	formats := "the text table or --json"
	if cmd.Flags().Lookup("csv-paired") != nil {
		formats = "the text table, --json or --csv-paired"
	}
	for _, name := range []string{"csv", "csv-summary"} {
		if fl := cmd.Flags().Lookup(name); fl != nil && fl.Changed && fl.Value.String() == "true" {
			return nil, fmt.Errorf("--baseline with --%s: the paired statistics go to %s, not --%s", name, formats, name)
		}
	}
	o := experiment.PairedOptions{Baseline: f.baseline, Method: experiment.PairedT, Metrics: f.metrics}
	if f.bootstrap {
		o.Method = experiment.PairedBootstrap
	}
	if err := o.Check(policies, seeds); err != nil {
		return nil, flagError(err)
	}
	return &o, nil
}

// flagError names the flag behind a refused paired option.
func flagError(err error) error {
	var fe *engine.FieldError
	if !errors.As(err, &fe) {
		return err
	}
	flag := map[string]string{"baseline": "--baseline", "seeds": "--seeds", "policies": "--policies"}[fe.Field]
	if strings.HasPrefix(fe.Field, "metrics") {
		flag = "--metrics"
	}
	if flag == "" {
		return err
	}
	return &engine.FieldError{Field: flag, Value: fe.Value, Allowed: fe.Allowed, Suggest: fe.Suggest}
}

// specNames lists the policies' names.
func specNames(ps []engine.PolicySpec) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Name
	}
	return out
}
