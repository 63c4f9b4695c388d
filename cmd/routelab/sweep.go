package main

import (
	"fmt"
	"slices"

	"github.com/routelab/routelab/experiment"
	"github.com/spf13/cobra"
)

// sweepConfig holds the flags of `routelab sweep`: a comparison's flags plus
// the rates to visit.
type sweepConfig struct {
	compareConfig
	rates []float64
}

func newSweepCmd() *cobra.Command {
	cfg := sweepConfig{}
	cmd := &cobra.Command{
		Use:   "sweep",
		Short: "Compare policies across arrival rates (the queueing hockey stick)",
		Long: `sweep runs a comparison at each arrival rate and reports per-policy summaries per rate.
It takes every flag of compare except --rate; --baseline adds each point's paired statistics.`,
		Example: `  routelab sweep --scenario steady --rates 50,100,150,200,250,300
  routelab sweep --scenario straggler --rates 100,175,250 --csv > sweep.csv`,
		Args: wantArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return cfg.run(cmd) },
	}
	cfg.compareConfig.bind(cmd)
	cmd.Flags().Float64SliceVar(&cfg.rates, "rates", []float64{50, 100, 150, 200, 250, 300}, "arrival rates to visit, req/s")
	_ = cmd.Flags().MarkHidden("rate")
	return cmd
}

func (c *sweepConfig) run(cmd *cobra.Command) error {
	if err := c.shard.check(cmd, c.inputs()...); err != nil {
		return err
	}
	if cmd.Flags().Changed("rate") { // hidden, as each point has its own
		return fmt.Errorf("--rate does not go with sweep: it visits the rates of --rates (want --rates %g)", c.rate)
	}
	for i, r := range c.rates {
		if slices.Contains(c.rates[:i], r) {
			return fmt.Errorf("--rates[%d]: %g is not allowed (want distinct rates: it is visited already)", i, r)
		}
	}
	if err := checkOutputs(c.figures.outputs(), c.inputs()...); err != nil {
		return err
	}
	ctx, stop := interruptible(cmd)
	defer stop()
	defer c.scripts.Close()
	e, err := c.experiment(ctx, cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	if len(c.rates) == 0 {
		return fmt.Errorf("--rates: none given (want at least one rate)")
	}
	po, err := c.paired.options(cmd, specNames(e.Policies), len(e.Seeds))
	if err != nil {
		return err
	}
	sw := experiment.Sweep{
		XLabel: "arrival rate (req/s)", XName: "rate_rps", Points: experiment.RateSweep(e.Scenario, c.rates...),
		Policies: e.Policies, Seeds: e.Seeds, Protocol: e.Protocol, Workers: e.Workers, Keep: e.Keep,
		Progress: progressReporter(cmd.ErrOrStderr(), "sweep"),
	}
	if c.shard.spec != "" {
		return c.shard.runSweep(ctx, cmd, "sweep", sw, &c.scripts)
	}
	res, err := experiment.RunSweep(ctx, sw)
	if err != nil {
		return err
	}
	var p *experiment.SweepPaired
	if po != nil {
		if p, err = res.Paired(*po); err != nil {
			return err
		}
	}
	return emit(ctx, cmd, c.outputs(), sweepResult{res, p})
}
