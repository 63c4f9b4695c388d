package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// verdict is what became of one program.
type verdict string

// The verdicts of a `run` program, best first, then those of an
// `errorcheck` program.
const (
	pass    verdict = "pass"    // exit 0 and the expected output
	refused verdict = "refused" // refused at compile time, before it ran
	loud    verdict = "loud"    // ran and failed visibly: a non-zero exit or a panic
	wrong   verdict = "wrong"   // exit 0, but not the expected output
	crash   verdict = "crash"   // the interpreter itself failed
	timeout verdict = "timeout" // no end within the time limit
	// An errorcheck program is refused at a line where Go reports an
	// error, refused elsewhere (another line, or no line), or accepted.
	refusedElsewhere verdict = "refused-elsewhere"
	accepted         verdict = "accepted"
)

// crashMarkers are the words of an interpreter that failed rather than
// judged the program: routelab's report of a recovered compiler panic,
// yaegi's internal failures and the Go runtime's own fatal errors.
var crashMarkers = []string{"the interpreter failed", "internal error", "internal compiler", "fatal error:", "nil type", "definition loop"}

var (
	// goroutineDump is the Go runtime's report of an unrecovered panic or
	// fatal error of the interpreter's process.
	goroutineDump = regexp.MustCompile(`^goroutine \d+ \[[^\]]*\]:$`)
	// failureLine is a line that says how a program failed, in routelab's
	// words (CompileError: …, RuntimeError: …) or in Go's.
	failureLine = regexp.MustCompile(`^(?:\S+: )?(?:\S+\.go: )?(?:[A-Z][A-Za-z]*Error|Panic|StackOverflow|Interrupted|panic|fatal error|exit status \d+)\b`)
	// excerpt is a line of the program's source that routelab quotes under
	// its message: the program's own words, which may be a crash marker
	// (an ERROR comment naming "definition loop").
	excerpt = regexp.MustCompile(`^\s+\d+ \| `)
	// position is the line:column of an error message, after its file.
	position = regexp.MustCompile(`^\s*(?:\S*?\.go:)?(\d+):(\d+)`)
	// reporter is the "routelab: FILE.go: " before an interpreter's
	// message: the file is the program's, which the table already names.
	reporter = regexp.MustCompile(`^(\S+: )\S+\.go: `)
	// log's time stamps, addresses and goroutine numbers vary from run
	// to run.
	timestamp = regexp.MustCompile(`^\d{4}/\d\d/\d\d \d\d:\d\d:\d\d(?:\.\d+)? `)
	address   = regexp.MustCompile(`0x[0-9a-f]{4,}`)
	goroutine = regexp.MustCompile(`goroutine \d+`)
)

// judge classifies outcomes. refusal matches the line an interpreter
// prints when it refuses a program at compile time; paths rewrites the
// absolute paths in reasons (GOROOT, the repository, temporary
// directories), so the table does not depend on where they are.
type judge struct {
	refusal *regexp.Regexp
	paths   *strings.Replacer
	limit   time.Duration
}

// runVerdict classifies a `run` program's outcome against its expected
// output (the .out file's text, "" when there is none).
func (j judge) runVerdict(o outcome, want string) (verdict, string) {
	got := strings.ReplaceAll(o.Output, "\r\n", "\n")
	if v, reason, ok := j.failure(o, got, want); ok {
		return v, reason
	}
	switch {
	case o.Exit == 0 && got == want:
		return pass, ""
	case o.Exit == 0:
		return wrong, j.tidy(firstDifference(got, want))
	}
	return loud, j.tidy(j.firstFailure(got, want, o.Exit))
}

// failure recognises the outcomes that are not about the output: a
// program that could not start, a time-out, a crash of the interpreter and
// a refusal at compile time, in that order (a compiler crash is reported
// as a compile error too).
func (j judge) failure(o outcome, got, want string) (verdict, string, bool) {
	switch {
	case o.Err != nil:
		return crash, j.tidy("could not run: " + o.Err.Error()), true
	case o.TimedOut:
		return timeout, fmt.Sprintf("no end within %v", j.limit), true
	case o.State != "":
		return crash, j.tidy("killed (" + o.State + "): " + firstLine(got)), true
	}
	if line, ok := crashLine(got, want); ok {
		return crash, j.tidy(line), true
	}
	if line, ok := j.refusalLine(got); ok && o.Exit != 0 {
		return refused, j.tidy(line), true
	}
	return "", "", false
}

// errorcheckVerdict classifies an `errorcheck` program's outcome: refused
// at a line Go's compiler reports an error at, refused at another line or
// with no position, or accepted (it compiled and ran, whatever the run
// gave).
func (j judge) errorcheckVerdict(o outcome, errorLines map[int]bool) (verdict, string) {
	v, reason := j.runVerdict(o, "")
	switch v {
	case crash, timeout:
		return v, reason
	case refused:
		line, _ := j.refusalLine(o.Output)
		if n, ok := refusalAt(j.refusal, line); ok && errorLines[n] {
			return refused, reason
		}
		return refusedElsewhere, reason
	}
	if reason == "" {
		reason = "ran, exit 0"
	}
	return accepted, "ran (" + string(v) + "): " + reason
}

// refusalAt is the line number of a refusal: the first position after the
// interpreter's refusal words.
func refusalAt(refusal *regexp.Regexp, line string) (int, bool) {
	loc := refusal.FindStringIndex(line)
	if loc == nil {
		return 0, false
	}
	m := position.FindStringSubmatch(line[loc[1]:])
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	return n, err == nil
}

// crashLine finds the first sign of a failed interpreter in the output,
// among the lines the expected output does not have (a program may print
// such words itself). A goroutine dump is named by the panic or fatal
// error above it.
func crashLine(got, want string) (string, bool) {
	expected := map[string]bool{}
	for _, l := range strings.Split(want, "\n") {
		expected[l] = true
	}
	lines := strings.Split(got, "\n")
	for i, l := range lines {
		if expected[l] || excerpt.MatchString(l) {
			continue
		}
		for _, m := range crashMarkers {
			if strings.Contains(l, m) {
				return l, true
			}
		}
		if goroutineDump.MatchString(l) {
			return dumpCause(lines[:i]), true
		}
	}
	return "", false
}

// dumpCause is the "panic: …" or "fatal error: …" line above a goroutine
// dump.
func dumpCause(above []string) string {
	for i := len(above) - 1; i >= 0; i-- {
		if strings.HasPrefix(above[i], "panic: ") || strings.HasPrefix(above[i], "fatal error: ") {
			return "goroutine dump after " + above[i]
		}
	}
	return "goroutine dump"
}

// refusalLine is the interpreter's refusal line, when there is one.
func (j judge) refusalLine(got string) (string, bool) {
	for _, l := range strings.Split(got, "\n") {
		if j.refusal.MatchString(l) {
			return l, true
		}
	}
	return "", false
}

// firstFailure is the most telling line of a loud failure: the first that
// says how the program failed, else its first line that the expected
// output does not have, else the exit status.
func (j judge) firstFailure(got, want string, exit int) string {
	for _, l := range strings.Split(got, "\n") {
		if failureLine.MatchString(strings.TrimSpace(l)) {
			return l
		}
	}
	wantLines := strings.Split(want, "\n")
	for i, l := range strings.Split(got, "\n") {
		if strings.TrimSpace(l) != "" && (i >= len(wantLines) || wantLines[i] != l) {
			return l
		}
	}
	return fmt.Sprintf("exit status %d", exit)
}

// firstDifference says where the output first differs from the expected.
func firstDifference(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		gl, wl := lineAt(g, i), lineAt(w, i)
		if gl != wl {
			return fmt.Sprintf("output line %d: got %s, want %s", i+1, gl, wl)
		}
	}
	return "output differs"
}

// lineAt is line i quoted, or "nothing" past the end.
func lineAt(lines []string, i int) string {
	if i >= len(lines) {
		return "nothing"
	}
	return strconv.Quote(lines[i])
}

// firstLine is the first non-blank line of s.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			return l
		}
	}
	return ""
}

// maxReason is how many characters of a reason the table keeps.
const maxReason = 160

// tidy makes a reason fit one table cell the same way on every machine and
// run: no absolute paths, addresses or goroutine numbers, one line of
// single spaces, at most maxReason characters.
func (j judge) tidy(s string) string {
	if j.paths != nil {
		s = j.paths.Replace(s)
	}
	s = timestamp.ReplaceAllString(strings.TrimSpace(s), "")
	s = reporter.ReplaceAllString(s, "$1")
	s = address.ReplaceAllString(s, "0x…")
	s = goroutine.ReplaceAllString(s, "goroutine N")
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > maxReason {
		s = string(r[:maxReason-1]) + "…"
	}
	return s
}
