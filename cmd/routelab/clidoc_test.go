package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/routelab/routelab/internal/docmark"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// cliDoc is docs/cli.md, whose command reference this package's command
// tree writes.
var cliDoc = filepath.Join("..", "..", "docs", "cli.md")

// cliReference renders every visible command: what it does, its usage,
// examples and flags, from the same cobra commands the binary runs.
func cliReference() string {
	var b strings.Builder
	root := newRoot(io.Discard, io.Discard)
	for _, cmd := range root.Commands() {
		if cmd.Hidden || cmd.Name() == "help" || cmd.Name() == "completion" {
			continue
		}
		fmt.Fprintf(&b, "### routelab %s\n\n%s.\n\n", cmd.Name(), cmd.Short)
		if cmd.Long != "" {
			fmt.Fprintf(&b, "%s\n\n", strings.TrimSpace(cmd.Long))
		}
		fmt.Fprintf(&b, "```\n%s\n```\n\n", cmd.UseLine())
		if cmd.Example != "" {
			fmt.Fprintf(&b, "Examples:\n\n```sh\n%s\n```\n\n", strings.TrimRight(dedent(cmd.Example), "\n"))
		}
		b.WriteString(flagTable(cmd))
	}
	return strings.TrimRight(b.String(), "\n")
}

func dedent(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "  ")
	}
	return strings.Join(lines, "\n")
}

// flagTable lists a command's own flags (not --help) with their types and
// defaults.
func flagTable(cmd *cobra.Command) string {
	var rows []string
	cmd.LocalFlags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden || f.Name == "help" {
			return
		}
		name := "`--" + f.Name
		if f.Shorthand != "" {
			name = "`-" + f.Shorthand + "`, " + name
		}
		typ, usage := pflag.UnquoteUsage(f)
		if typ != "" {
			name += " " + typ
		}
		def := f.DefValue
		switch {
		case f.Value.Type() == "bool" && def == "false", def == "", def == "[]", def == "0" && strings.Contains(usage, "0:"):
			def = ""
		default:
			def = "`" + def + "`"
		}
		rows = append(rows, fmt.Sprintf("| %s` | %s | %s |", name, strings.ReplaceAll(usage, "|", `\|`), def))
	})
	if len(rows) == 0 {
		return ""
	}
	return "| flag | meaning | default |\n|---|---|---|\n" + strings.Join(rows, "\n") + "\n\n"
}

// docs/cli.md shows each command's flags as the binary declares them; go
// test ./cmd/routelab -run TestCLIReference -update rewrites it.
func TestCLIReference(t *testing.T) {
	data, err := os.ReadFile(cliDoc)
	if err != nil {
		t.Fatal(err)
	}
	render := func(name string) (string, error) {
		if name != "cli.reference" {
			return "", fmt.Errorf("cmd/routelab renders only cli.reference, not %s", name)
		}
		return cliReference(), nil
	}
	if *update {
		out, err := docmark.Rewrite(string(data), "cli", render)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(cliDoc, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	drifts, err := docmark.Check("docs/cli.md", string(data), "cli", render)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range drifts {
		t.Errorf("%v\n(run go test ./cmd/routelab -run TestCLIReference -update)", d)
	}
	if names, _ := docmark.Names(string(data), "cli"); len(names) != 1 {
		t.Errorf("docs/cli.md has the parts %v, want cli.reference once", names)
	}
}

// The reference has every visible command and every flag the binary
// accepts, and a changed default shows as a drift.
func TestCLIReferenceCoversEveryFlag(t *testing.T) {
	ref := cliReference()
	root := newRoot(io.Discard, io.Discard)
	for _, cmd := range root.Commands() {
		if cmd.Hidden || cmd.Name() == "help" || cmd.Name() == "completion" {
			continue
		}
		if !strings.Contains(ref, "### routelab "+cmd.Name()+"\n") {
			t.Errorf("no section for %s", cmd.Name())
		}
		cmd.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden && f.Name != "help" && !strings.Contains(ref, "`--"+f.Name) {
				t.Errorf("%s --%s is not in the reference", cmd.Name(), f.Name)
			}
		})
	}
	if !strings.Contains(ref, "| `--seeds int` | number of seeds | `10` |") {
		t.Errorf("compare's --seeds row is not as declared:\n%s", ref)
	}
	doc := "<!-- gen cli.reference -->\n" + strings.Replace(ref, "| `--seeds int` | number of seeds | `10` |", "| `--seeds int` | number of seeds | `20` |", 1) + "\n<!-- /gen -->\n"
	drifts, _ := docmark.Check("cli.md", doc, "cli", func(string) (string, error) { return ref, nil })
	if len(drifts) != 1 {
		t.Errorf("a wrong default gave %d drifts, want 1", len(drifts))
	}
}
