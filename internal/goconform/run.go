package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// run runs the chosen suites and returns the exit status: 1 when -check
// found a regression.
func run(ctx context.Context, cfg config, stdout, stderr io.Writer) (int, error) {
	root, goroot, err := locate(ctx, cfg)
	if err != nil {
		return 0, err
	}
	testDir := filepath.Join(goroot, "test")
	importable, err := importableSet(filepath.Join(root, "third_party", "yaegi", "stdlib"))
	if err != nil {
		return 0, err
	}
	sel, err := selectPrograms(testDir, func(p string) bool { return importable[p] })
	if err != nil {
		return 0, err
	}
	scratch, err := os.MkdirTemp("", "goconform-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(scratch)
	h, err := newHarness(ctx, cfg, root, goroot, scratch, stderr)
	if err != nil {
		return 0, err
	}
	match := regexp.MustCompile(cfg.match) // validated by parseFlags
	printSelection(stdout, goroot, sel)
	return h.runSuites(ctx, cfg, chosenSuites(cfg.suites, sel, match), tablesDir(cfg, root), stdout)
}

// locate finds the repository (the module the harness is in, whose
// interpreter tables and command it uses) and the Go tree.
func locate(ctx context.Context, cfg config) (root, goroot string, err error) {
	gomod, err := goEnv(ctx, "GOMOD")
	if err != nil {
		return "", "", err
	}
	if gomod == "" || gomod == os.DevNull {
		return "", "", errors.New("run goconform inside the routelab repository")
	}
	goroot = cfg.goroot
	if goroot == "" {
		goroot, err = goEnv(ctx, "GOROOT")
	}
	return filepath.Dir(gomod), goroot, err
}

func goEnv(ctx context.Context, name string) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", name).Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %w", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}

func tablesDir(cfg config, root string) string {
	if cfg.tables != "" {
		return cfg.tables
	}
	return filepath.Join(root, "internal", "goconform", "testdata")
}

// newHarness sets up the interpreter (building routelab unless -bin names
// one) and the judge.
func newHarness(ctx context.Context, cfg config, root, goroot, scratch string, log io.Writer) (harness, error) {
	bin := cfg.bin
	if bin == "" {
		var err error
		if bin, err = buildRoutelab(ctx, root, scratch, log); err != nil {
			return harness{}, err
		}
	} else if abs, err := filepath.Abs(bin); err == nil {
		bin = abs // the programs run in another directory
	}
	testDir := filepath.Join(goroot, "test")
	copies := filepath.Join(scratch, "errorcheck")
	// Longer prefixes first: the errorcheck copies are inside the scratch
	// directory, and the test directory inside GOROOT.
	sep := string(filepath.Separator)
	paths := strings.NewReplacer(copies+sep, "", scratch+sep, "", testDir+sep, "", root+sep, "", goroot, "$GOROOT")
	return harness{
		in:      interpreter{bin: bin, execForm: cfg.form == "exec", dir: testDir, goroot: goroot, limit: cfg.limit},
		judge:   judge{refusal: regexp.MustCompile(cfg.refused), paths: paths, limit: cfg.limit},
		testDir: testDir, scratch: copies, workers: cfg.workers,
		log: log, verbose: cfg.verbose,
	}, nil
}

// buildRoutelab builds the repository's command, without file system
// paths in its binary (a goroutine dump then names packages, not the
// machine's directories).
func buildRoutelab(ctx context.Context, root, dir string, log io.Writer) (string, error) {
	bin := filepath.Join(dir, "routelab")
	fmt.Fprintln(log, "building ./cmd/routelab")
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", bin, "./cmd/routelab")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building routelab: %v\n%s", err, out)
	}
	return bin, nil
}

// chosenSuites are the suites -suite names, with the programs -match
// chooses.
func chosenSuites(which string, sel selection, match *regexp.Regexp) []suite {
	var out []suite
	if which != "errorcheck" {
		out = append(out, runSuite(matching(sel.Run, match)))
	}
	if which != "run" {
		out = append(out, errorcheckSuite(matching(sel.Errorcheck, match)))
	}
	for i := range out {
		out[i].covers = match.MatchString
	}
	return out
}

func matching(programs []program, match *regexp.Regexp) []program {
	var out []program
	for _, p := range programs {
		if match.MatchString(p.Rel) {
			out = append(out, p)
		}
	}
	return out
}

// printSelection says what was chosen from the Go tree, and what was
// left out for which reason.
func printSelection(w io.Writer, goroot string, sel selection) {
	version, _ := os.ReadFile(filepath.Join(goroot, "VERSION"))
	first, _, _ := strings.Cut(string(version), "\n")
	fmt.Fprintf(w, "%s/test (%s): %d run programs, %d errorcheck programs\n", goroot, first, len(sel.Run), len(sel.Errorcheck))
	reasons := make([]string, 0, len(sel.Skipped))
	for r := range sel.Skipped {
		reasons = append(reasons, r)
	}
	slices.Sort(reasons)
	var parts []string
	for _, r := range reasons {
		parts = append(parts, fmt.Sprintf("%s %d", r, sel.Skipped[r]))
	}
	fmt.Fprintf(w, "left out: %s\n\n", strings.Join(parts, ", "))
}

// runSuites runs each suite, then writes or checks its table.
func (h harness) runSuites(ctx context.Context, cfg config, suites []suite, tables string, w io.Writer) (int, error) {
	start, code := time.Now(), 0
	for _, s := range suites {
		c, err := h.runOneSuite(ctx, cfg, s, filepath.Join(tables, s.table), w)
		if err != nil {
			return 0, err
		}
		code = max(code, c)
	}
	fmt.Fprintf(w, "wall time %v with %d workers, a limit of %v a program\n", time.Since(start).Round(time.Second), h.workers, cfg.limit)
	return code, nil
}

func (h harness) runOneSuite(ctx context.Context, cfg config, s suite, table string, w io.Writer) (int, error) {
	start := time.Now()
	results, err := h.runAll(ctx, s, s.programs, h.workers)
	if err != nil {
		return 0, err
	}
	// A check re-runs its regressions only (recheck): a program that timed
	// out in the table too needs no second run.
	var c comparison
	var confirmed []change
	if cfg.check {
		c, confirmed, err = h.check(ctx, s, table, results)
	} else {
		err = h.retryTimeouts(ctx, s, s.programs, results)
	}
	if err != nil {
		return 0, err
	}
	printSummary(w, fmt.Sprintf("%s programs (%v):", s.name, time.Since(start).Round(time.Second)), s.order, results)
	printFlaky(w, results)
	fmt.Fprintln(w)
	if cfg.update {
		return 0, updateTable(table, results, s.covers)
	}
	if cfg.check {
		return printCheck(w, s, c, confirmed), nil
	}
	return 0, nil
}

// updateTable writes the table, keeping the rows of programs this run did
// not cover (-match).
func updateTable(path string, results []result, covered func(string) bool) error {
	old, err := readTable(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return writeTable(path, merge(old, results, covered))
}

// check compares the run with the table; a regression is run once more,
// alone, before it counts.
func (h harness) check(ctx context.Context, s suite, table string, results []result) (comparison, []change, error) {
	old, err := readTable(table)
	if err != nil {
		return comparison{}, nil, fmt.Errorf("%v (write it with -update)", err)
	}
	c := compare(old, results, s.covers, s.worse)
	confirmed, err := h.recheck(ctx, s, c, results)
	if err != nil {
		return comparison{}, nil, err
	}
	// What the re-runs changed is compared again, for the lists below.
	c = compare(old, results, s.covers, s.worse)
	return c, confirmed, nil
}

// printCheck lists the check's findings and returns its exit status.
func printCheck(w io.Writer, s suite, c comparison, confirmed []change) int {
	printChanges(w, s.name+": REGRESSIONS against "+s.table, confirmed)
	printChanges(w, s.name+": changed, not regressions (refresh the table with -update)", c.Changes)
	printChanges(w, s.name+": new programs (refresh the table with -update)", c.Added)
	printChanges(w, s.name+": gone from the suite (refresh the table with -update)", c.Removed)
	if len(confirmed) > 0 {
		fmt.Fprintf(w, "%s: %d regression(s) against %s\n\n", s.name, len(confirmed), s.table)
		return 1
	}
	fmt.Fprintf(w, "%s: no regression against %s\n\n", s.name, s.table)
	return 0
}
