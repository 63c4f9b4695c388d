package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
)

// harness runs programs of the suite through one interpreter and judges
// them.
type harness struct {
	in      interpreter
	judge   judge
	testDir string    // $GOROOT/test
	scratch string    // where errorcheck programs are copied to
	workers int       // programs run at once
	log     io.Writer // progress, and each verdict when verbose
	verbose bool
}

// suite is one table of the harness: the `run` programs or the
// `errorcheck` ones.
type suite struct {
	name     string
	table    string    // the table's file name
	order    []verdict // the verdicts, in the summary's order
	worse    func(old, new verdict) bool
	programs []program
	covers   func(path string) bool // the paths -match chose from
	judgeOne func(h harness, ctx context.Context, p program) result
}

func runSuite(programs []program) suite {
	return suite{name: "run", table: "verdicts.tsv", order: []verdict{pass, refused, loud, wrong, crash, timeout},
		worse: runWorse, programs: programs, judgeOne: harness.runProgram}
}

func errorcheckSuite(programs []program) suite {
	return suite{name: "errorcheck", table: "errorcheck.tsv", order: []verdict{refused, refusedElsewhere, accepted, crash, timeout},
		worse: errorcheckWorse, programs: programs, judgeOne: harness.errorcheckProgram}
}

// runProgram runs a `run` program where it is, from $GOROOT/test as Go's
// driver does (some programs name files relative to it), and sets its
// output against the .out file beside it.
func (h harness) runProgram(ctx context.Context, p program) result {
	want, err := os.ReadFile(filepath.Join(h.testDir, strings.TrimSuffix(p.Rel, ".go")+".out"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return result{Path: p.Rel, Importable: p.Importable, Verdict: crash, Reason: h.judge.tidy(err.Error())}
	}
	o := h.in.run(ctx, filepath.FromSlash(p.Rel), p.Args)
	v, reason := h.judge.runVerdict(o, string(want))
	return result{Path: p.Rel, Importable: p.Importable, Verdict: v, Reason: reason}
}

// errorcheckProgram runs a copy of an `errorcheck` program whose package
// clause says main: cells and scripts are package main, so a `package p`
// file would otherwise be refused for its clause, not for the error it
// tests. A package clause that is itself the error stays.
func (h harness) errorcheckProgram(ctx context.Context, p program) result {
	file, err := h.mainCopy(p)
	if err != nil {
		return result{Path: p.Rel, Importable: p.Importable, Verdict: crash, Reason: h.judge.tidy(err.Error())}
	}
	o := h.in.run(ctx, file, nil)
	v, reason := h.judge.errorcheckVerdict(o, p.ErrorLines)
	return result{Path: p.Rel, Importable: p.Importable, Verdict: v, Reason: reason}
}

// packageClause is a file's package clause.
var packageClause = regexp.MustCompile(`(?m)^package\s+\S+`)

// mainCopy writes p, as package main, under the scratch directory, at the
// same relative path (messages name the same file), and returns its path.
// The line count does not change, so errors keep their line numbers.
func (h harness) mainCopy(p program) (string, error) {
	src, err := os.ReadFile(filepath.Join(h.testDir, filepath.FromSlash(p.Rel)))
	if err != nil {
		return "", err
	}
	if loc := packageClause.FindIndex(src); loc != nil {
		line := 1 + strings.Count(string(src[:loc[0]]), "\n")
		if !p.ErrorLines[line] {
			src = append(append(append([]byte(nil), src[:loc[0]]...), "package main"...), src[loc[1]:]...)
		}
	}
	dst := filepath.Join(h.scratch, filepath.FromSlash(p.Rel))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", err
	}
	return dst, os.WriteFile(dst, src, 0o644)
}

// runAll judges every program of s, workers at once.
func (h harness) runAll(ctx context.Context, s suite, programs []program, workers int) ([]result, error) {
	results := make([]result, len(programs))
	jobs := make(chan int)
	var done atomic.Int64
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Go(func() {
			for i := range jobs {
				results[i] = s.judgeOne(h, ctx, programs[i])
				h.report(s, results[i], int(done.Add(1)), len(programs))
			}
		})
	}
	feed(ctx, jobs, len(programs))
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s programs: %w", s.name, err)
	}
	return results, nil
}

// feed hands out the indexes 0..n-1 until ctx ends, then closes jobs.
func feed(ctx context.Context, jobs chan<- int, n int) {
	defer close(jobs)
	for i := range n {
		select {
		case jobs <- i:
		case <-ctx.Done():
			return
		}
	}
}

// retryTimeouts runs each program that timed out once more, alone: with
// other programs running beside it a slow program can miss the limit it
// meets on its own. A re-run that ends gives the verdict, with the
// time-out kept as the first one (the program is listed as
// timing-dependent).
func (h harness) retryTimeouts(ctx context.Context, s suite, programs []program, results []result) error {
	var again []program
	var at []int
	for i, r := range results {
		if r.Verdict == timeout {
			again, at = append(again, programs[i]), append(at, i)
		}
	}
	if len(again) == 0 {
		return nil
	}
	fmt.Fprintf(h.log, "%s: running the %d programs that timed out once more, one at a time\n", s.name, len(again))
	retried, err := h.runAll(ctx, s, again, 1)
	if err != nil {
		return err
	}
	for k, i := range at {
		if retried[k].Verdict != timeout {
			retried[k].First = timeout
			results[i] = retried[k]
		}
	}
	return nil
}

// report logs one verdict when verbose, else a count now and then.
func (h harness) report(s suite, r result, done, total int) {
	switch {
	case h.verbose:
		fmt.Fprintf(h.log, "%s %d/%d %s: %s %s\n", s.name, done, total, r.Path, r.Verdict, r.Reason)
	case done%100 == 0 || done == total:
		fmt.Fprintf(h.log, "%s: %d/%d programs\n", s.name, done, total)
	}
}

// recheck runs the regressions of c once more, alone, as retryTimeouts
// does, and puts the re-run's verdict in results: a program whose re-run
// is no regression after all is timing-dependent (its first verdict is
// kept in First, and it is listed as such) and does not fail the check;
// the others are returned, confirmed.
func (h harness) recheck(ctx context.Context, s suite, c comparison, results []result) ([]change, error) {
	byPath := map[string]program{}
	for _, p := range s.programs {
		byPath[p.Rel] = p
	}
	at := map[string]int{}
	for i, r := range results {
		at[r.Path] = i
	}
	programs := make([]program, len(c.Regressions))
	for i, ch := range c.Regressions {
		programs[i] = byPath[ch.Path]
	}
	if len(programs) > 0 {
		fmt.Fprintf(h.log, "%s: running the %d regressions once more, one at a time\n", s.name, len(programs))
	}
	again, err := h.runAll(ctx, s, programs, 1)
	if err != nil {
		return nil, err
	}
	var confirmed []change
	for i, ch := range c.Regressions {
		if again[i].Verdict != ch.New {
			again[i].First = ch.New
		}
		results[at[ch.Path]] = again[i]
		ch.First, ch.New, ch.Reason = again[i].First, again[i].Verdict, again[i].Reason
		if s.worse(ch.Old, ch.New) {
			confirmed = append(confirmed, ch)
		}
	}
	return confirmed, nil
}
