// Command goconform judges routelab's Go interpreter against the Go
// distribution's own test programs, $GOROOT/test: every single-file
// program whose recipe is `// run` is run as `routelab exec FILE` and its
// output set against the .out file beside it, and every `// errorcheck`
// program is run to see whether the interpreter refuses it.
//
//	go run ./internal/goconform              # run the suite, print the counts
//	go run ./internal/goconform -update      # also write testdata/*.tsv
//	go run ./internal/goconform -check       # fail on a regression against testdata/*.tsv
//
// See README.md beside this file for the rules.
//
// Read first: main.go (the flags) and run.go (building routelab, choosing
// the suites, running them, -update and -check), then the steps a program
// goes through:
//
//   - select.go — which programs are taken, as Go's driver
//     (cmd/internal/testdir) reads them: the recipe line, the build
//     constraints for linux/amd64 without cgo, the arguments or flags,
//     imports a cell can make (importable.go: the vendored interpreter's
//     standard library tables), and an errorcheck program's ERROR lines;
//   - harness.go — the two suites, run and errorcheck, over a pool of
//     workers, with re-runs of time-outs and of regressions;
//   - runner.go — one `routelab exec` with a time limit and capped output,
//     in a process group of its own (proc_unix.go; proc_other.go elsewhere);
//   - classify.go — the verdict (verdict, judge): pass, refused, loud,
//     wrong, crash or timeout for a run program; refused, refused
//     elsewhere or accepted for an errorcheck one; and the telling line;
//   - table.go — the tables of testdata/verdicts.tsv and errorcheck.tsv,
//     read, merged and written.
//
// conform_test.go is the same check as a test (TestConformance, under
// ROUTELAB_CONFORMANCE=1, mandatory in CI); the other tests cover
// selection and classification on small inputs.
package main
