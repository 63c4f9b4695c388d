// Command docgen rewrites the generated parts of routelab's documentation
// (see package docgen). go generate ./internal/docgen runs it.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/routelab/routelab/internal/docgen"
)

func main() {
	root := flag.String("root", ".", "the repository's root directory")
	check := flag.Bool("check", false, "report what differs from the code and exit 1, writing nothing")
	flag.Parse()
	g := docgen.New(context.Background(), *root)
	if *check {
		drifts, err := g.Check()
		if err != nil {
			fmt.Fprintln(os.Stderr, "docgen:", err)
			os.Exit(1)
		}
		for _, d := range drifts {
			fmt.Fprintln(os.Stderr, d)
		}
		if len(drifts) > 0 {
			os.Exit(1)
		}
		return
	}
	changed, err := g.Update()
	if err != nil {
		fmt.Fprintln(os.Stderr, "docgen:", err)
		os.Exit(1)
	}
	for _, path := range changed {
		fmt.Println("docgen: wrote", path)
	}
}
