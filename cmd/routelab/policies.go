package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/routelab/routelab/engine"
	"github.com/spf13/cobra"
)

func newPoliciesCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the built-in policies and scenarios, and the metrics records carry",
		Args:  wantArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "POLICY\tWHAT IT DOES")
			for _, n := range engine.PolicyNames() {
				fmt.Fprintf(tw, "%s\t%s\n", n, engine.PolicyAbout(n))
			}
			fmt.Fprintln(tw, "\nSCENARIO\tWHAT HAPPENS")
			for _, n := range engine.ScenarioNames() {
				fmt.Fprintf(tw, "%s\t%s\n", n, engine.ScenarioAbout(n))
			}
			fmt.Fprintln(tw, "\nMETRIC\tUNIT\tBETTER\tWHAT IT IS")
			for _, m := range engine.Metrics() {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", m.Key, m.Unit, m.Better, m.About)
			}
			return tw.Flush()
		},
	}
}
