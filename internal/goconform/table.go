package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
)

// result is a program's verdict. First is the verdict of its first run
// when a re-run alone (after a time-out, or of a regression in -check)
// gave another: the program is timing-dependent, and both are reported.
type result struct {
	Path       string
	Importable bool
	Verdict    verdict
	Reason     string
	First      verdict
}

// tableHeader is the first line of a verdicts table.
const tableHeader = "path\tverdict\treason"

// writeTable writes results as a TSV table sorted by path: the same
// results give the same bytes.
func writeTable(path string, results []result) error {
	sorted := slices.Clone(results)
	slices.SortFunc(sorted, func(a, b result) int { return strings.Compare(a.Path, b.Path) })
	var b strings.Builder
	b.WriteString(tableHeader + "\n")
	for _, r := range sorted {
		fmt.Fprintf(&b, "%s\t%s\t%s\n", r.Path, r.Verdict, r.Reason)
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// readTable reads a table writeTable wrote, by path.
func readTable(path string) (map[string]result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows := map[string]result{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if n == 1 && sc.Text() == tableHeader {
			continue
		}
		fields := strings.SplitN(sc.Text(), "\t", 3)
		if len(fields) != 3 {
			return nil, fmt.Errorf("%s:%d: want path, verdict and reason separated by tabs", path, n)
		}
		rows[fields[0]] = result{Path: fields[0], Verdict: verdict(fields[1]), Reason: fields[2]}
	}
	return rows, sc.Err()
}

// merge replaces the rows of old that the fresh run covered (covered
// tells the paths a filtered run chose from) with the fresh results.
func merge(old map[string]result, fresh []result, covered func(string) bool) []result {
	var out []result
	for p, r := range old {
		if !covered(p) {
			out = append(out, r)
		}
	}
	return append(out, fresh...)
}

// change is a program whose verdict differs from the table's.
type change struct {
	Path     string
	Old, New verdict
	Reason   string
	First    verdict
}

// comparison is a fresh run set against a table: regressions fail a
// check; other changes, and programs added to or gone from the suite, are
// listed for a refresh of the table.
type comparison struct {
	Regressions, Changes, Added, Removed []change
}

// compare sets fresh against the table's rows; worse says which changes
// are regressions. Only the paths covered by the fresh run are compared.
func compare(old map[string]result, fresh []result, covered func(string) bool, worse func(old, new verdict) bool) comparison {
	var c comparison
	seen := map[string]bool{}
	for _, r := range fresh {
		seen[r.Path] = true
		o, ok := old[r.Path]
		ch := change{Path: r.Path, Old: o.Verdict, New: r.Verdict, Reason: r.Reason, First: r.First}
		switch {
		case !ok:
			c.Added = append(c.Added, ch)
		case worse(o.Verdict, r.Verdict):
			c.Regressions = append(c.Regressions, ch)
		case o.Verdict != r.Verdict:
			c.Changes = append(c.Changes, ch)
		}
	}
	for p, o := range old {
		if covered(p) && !seen[p] {
			c.Removed = append(c.Removed, change{Path: p, Old: o.Verdict})
		}
	}
	for _, l := range [][]change{c.Regressions, c.Changes, c.Added, c.Removed} {
		slices.SortFunc(l, func(a, b change) int { return strings.Compare(a.Path, b.Path) })
	}
	return c
}

// runWorse is the check's rule for `run` programs: a program that passed
// and no longer does, or one whose verdict became wrong, crash or timeout.
// A change among refused and loud, or towards pass, is not a regression.
func runWorse(old, new verdict) bool {
	if old == new {
		return false
	}
	return old == pass || new == wrong || new == crash || new == timeout
}

// errorcheckRank orders errorcheck verdicts from the best (the error is
// caught where Go catches it) to the worst (the interpreter failed).
func errorcheckRank(v verdict) int {
	switch v {
	case refused:
		return 0
	case refusedElsewhere:
		return 1
	case accepted:
		return 2
	}
	return 3
}

// errorcheckWorse is the check's rule for `errorcheck` programs: a worse
// rank, or a change between crash and timeout.
func errorcheckWorse(old, new verdict) bool {
	ro, rn := errorcheckRank(old), errorcheckRank(new)
	return rn > ro || (rn == 3 && old != new)
}

// printChanges lists one kind of change under a title.
func printChanges(w io.Writer, title string, l []change) {
	if len(l) == 0 {
		return
	}
	fmt.Fprintf(w, "%s (%d):\n", title, len(l))
	for _, c := range l {
		now := string(orNone(c.New))
		if c.First != "" {
			now = fmt.Sprintf("%s, then %s alone", c.First, c.New)
		}
		fmt.Fprintf(w, "  %s: %s -> %s  %s\n", c.Path, orNone(c.Old), now, c.Reason)
	}
}

func orNone(v verdict) verdict {
	if v == "" {
		return "(none)"
	}
	return v
}

// printSummary writes the count of each verdict, over all programs and
// over those that import only packages cells can import.
func printSummary(w io.Writer, title string, order []verdict, results []result) {
	all, imp := map[verdict]int{}, map[verdict]int{}
	nImp := 0
	for _, r := range results {
		all[r.Verdict]++
		if r.Importable {
			imp[r.Verdict]++
			nImp++
		}
	}
	fmt.Fprintf(w, "%s\n", title)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "verdict\tall\timportable only\t\n")
	for _, v := range order {
		fmt.Fprintf(tw, "%s\t%d\t%d\t\n", v, all[v], imp[v])
	}
	fmt.Fprintf(tw, "total\t%d\t%d\t\n", len(results), nImp)
	tw.Flush()
}

// printFlaky lists the programs a re-run gave another verdict.
func printFlaky(w io.Writer, results []result) {
	var flaky []result
	for _, r := range results {
		if r.First != "" {
			flaky = append(flaky, r)
		}
	}
	if len(flaky) == 0 {
		return
	}
	fmt.Fprintf(w, "timing-dependent: run alone once more, they gave another verdict (%d):\n", len(flaky))
	for _, r := range flaky {
		fmt.Fprintf(w, "  %s: %s, then %s alone  %s\n", r.Path, r.First, r.Verdict, r.Reason)
	}
}
