package dsl

import (
	"fmt"
	"go/scanner"
	"go/token"
	"go/types"
	"math"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/routelab/routelab/display"
)

// Magics are the IPython commands notebook users type: %time and %%time,
// %who and %whos, %env. No line of Go starts with %, outside a raw string
// or a comment (% is only ever a binary operator, and a line break after
// an operand ends the statement), so a cell line that does is a magic. A
// cell with magic lines runs as the Go between them, piece by piece in
// order, each magic in its place; a cell magic (%%time) takes the whole
// cell after its line and must be the cell's first line. Scripts are Go
// files: they get no magics.

// magic is one command: its name ("time", "%time" for the cell magic), a
// line of usage for messages, and what it does with the text after its
// name.
type magic struct {
	name, usage string
	run         func(s *Session, r *cellRun, p piece) error
}

// magics is the one list of them.
func magics() []magic {
	return []magic{
		{"time", "%time STATEMENT: runs the rest of the line and reports its CPU and wall time", (*Session).timeLine},
		{"%time", "%%time on a cell's first line: runs the rest of the cell and reports its CPU and wall time", (*Session).timeCell},
		{"who", "%who [TYPE ...]: the session's variables (of those types)", (*Session).who},
		{"whos", "%whos [TYPE ...]: the session's variables with their type, cell and value", (*Session).whos},
		{"env", "%env, %env NAME, %env NAME=VALUE: shows or sets the environment", (*Session).env},
	}
}

// magicNames lists the magics as users type them, for messages.
func magicNames() string {
	var names []string
	for _, m := range magics() {
		names = append(names, "%"+m.name)
	}
	return strings.Join(names, ", ")
}

// piece is a part of a cell: Go code, or one magic with its argument.
// line and col locate text in the cell.
type piece struct {
	magic     string // "" for code; "time", "%time", ... for a magic
	text      string // the code, or the magic's argument
	line, col int    // where text starts
	at        int    // a magic's column
	rest      string // for a cell magic: the cell after its line
}

// code is the piece's text placed at its line and column, so that
// positions in errors are the cell's.
func (p piece) code() string {
	return strings.Repeat("\n", p.line-1) + strings.Repeat(" ", p.col-1) + p.text
}

// magicPieces splits code at its magic lines; nil when it has none.
func magicPieces(code string) []piece {
	lines := strings.SplitAfter(code, "\n")
	inside := literalLines(code, len(lines))
	var out []piece
	var run strings.Builder
	runLine := 1
	flush := func(next int) {
		if strings.TrimSpace(run.String()) != "" {
			out = append(out, piece{text: run.String(), line: runLine, col: 1})
		}
		run.Reset()
		runLine = next
	}
	magicSeen := false
	for i, l := range lines {
		t := strings.TrimLeft(l, " \t")
		if inside[i] || !strings.HasPrefix(t, "%") {
			run.WriteString(l)
			continue
		}
		magicSeen = true
		flush(i + 2)
		name, arg := splitMagic(strings.TrimRight(t, "\r\n"))
		at := len(l) - len(t) + 1
		after := t[1+len(name):]
		p := piece{magic: name, text: arg, line: i + 1, at: at, col: at + 1 + len(name) + len(after) - len(strings.TrimLeft(after, " \t"))}
		if strings.HasPrefix(name, "%") {
			p.rest = strings.Join(lines[i+1:], "")
			return append(out, p)
		}
		out = append(out, p)
	}
	if !magicSeen {
		return nil
	}
	flush(0)
	return out
}

// magicsAsGo is the Go of a cell with magics: each piece's code, a line
// magic's argument in its place, so a front end asking whether the cell is
// complete learns whether its Go is.
func magicsAsGo(pieces []piece) string {
	var b strings.Builder
	for _, p := range pieces {
		b.WriteString("\n" + p.text + "\n" + p.rest)
	}
	return b.String()
}

// splitMagic splits "%name arg" (or "%%name arg") into its name without
// the first % and its argument.
func splitMagic(t string) (name, arg string) {
	body := t[1:]
	end := 0
	if strings.HasPrefix(body, "%") {
		end = 1
	}
	for end < len(body) && (body[end] == '_' || 'a' <= body[end] && body[end] <= 'z' || 'A' <= body[end] && body[end] <= 'Z' || '0' <= body[end] && body[end] <= '9') {
		end++
	}
	return body[:end], strings.TrimSpace(body[end:])
}

// literalLines marks the lines (of n) that begin inside a raw string or a
// comment: a % there is text, not a magic.
func literalLines(code string, n int) []bool {
	inside := make([]bool, n)
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(code))
	var sc scanner.Scanner
	sc.Init(f, []byte(code), func(token.Position, string) {}, scanner.ScanComments)
	for {
		pos, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		if (tok == token.STRING || tok == token.COMMENT) && strings.Contains(lit, "\n") {
			first := fset.Position(pos).Line
			for l := first; l < first+strings.Count(lit, "\n") && l < n; l++ {
				inside[l] = true
			}
		}
	}
	return inside
}

// runMagics runs a cell that has magic lines, piece by piece, once every
// magic in it is known to be used in its place.
func (s *Session) runMagics(r *cellRun, pieces []piece) error {
	ms := make([]magic, len(pieces))
	for i, p := range pieces {
		if p.magic == "" {
			continue
		}
		m, ok := s.magic(p.magic)
		if !ok {
			return s.usageError(r, p, p.at, fmt.Sprintf("%%%s: no such magic; the magics are %s", p.magic, magicNames()))
		}
		if strings.HasPrefix(p.magic, "%") && i > 0 {
			return s.usageError(r, p, p.at, fmt.Sprintf("%%%s must be the cell's first line (%s)", p.magic, m.usage))
		}
		ms[i] = m
	}
	for i, p := range pieces {
		var err error
		if p.magic == "" {
			err = s.runGo(r, p.code())
		} else {
			err = ms[i].run(s, r, p)
		}
		if err != nil {
			return withCellLines(err, r.code)
		}
	}
	return nil
}

// excerptLine is a line of source in a traceback: "  12 | text".
var excerptLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^( *(\d+) \| )`) })

// withCellLines shows the cell's own lines in err's excerpts: a piece runs
// as its text at its place, with blanks where the cell has a magic's name,
// so the line numbers and columns are the cell's already.
func withCellLines(err error, cell string) error {
	de, ok := err.(*display.Error)
	if !ok {
		return err
	}
	lines := strings.Split(cell, "\n")
	for i, l := range de.Traceback {
		m := excerptLine().FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if n, _ := strconv.Atoi(m[2]); n >= 1 && n <= len(lines) {
			de.Traceback[i] = m[1] + strings.ReplaceAll(lines[n-1], "\t", "    ")
		}
	}
	return de
}

func (s *Session) magic(name string) (magic, bool) {
	for _, m := range magics() {
		if m.name == name {
			return m, true
		}
	}
	return magic{}, false
}

// usageError is a magic used wrongly, at column col of its line.
func (s *Session) usageError(r *cellRun, p piece, col int, msg string) error {
	return newError(UsageError, &cellError{Line: p.line, Col: col, Msg: msg}, nil, r.code)
}

// timeLine is %time: the rest of its line, timed.
func (s *Session) timeLine(r *cellRun, p piece) error {
	if p.text == "" {
		m, _ := s.magic("time")
		return s.usageError(r, p, p.at, "%time needs a statement to time ("+m.usage+")")
	}
	return s.timed(func() error { return s.runGo(r, p.code()) })
}

// timeCell is %%time: the rest of the cell, timed. Its own line holds
// nothing else.
func (s *Session) timeCell(r *cellRun, p piece) error {
	if p.text != "" {
		return s.usageError(r, p, p.col, fmt.Sprintf("%%%%time takes nothing on its line (%q): the cell's other lines are what it times", p.text))
	}
	code := strings.Repeat("\n", p.line) + p.rest
	return s.timed(func() error { return s.runCell(r, code) })
}

// timed runs f and writes its CPU and wall time to the cell's output, as
// IPython's %time does, whether f failed or not. CPU time is the
// process's: the cell's and what its goroutines and the interpreter spent
// meanwhile.
func (s *Session) timed(f func() error) error {
	user0, sys0 := cpuTimes()
	start := time.Now()
	err := f()
	wall := time.Since(start)
	user, sys := cpuTimes()
	user, sys = user-user0, sys-sys0
	s.out.flush()
	fmt.Fprintf(s.out.outW, "CPU times: user %s, sys: %s, total: %s\nWall time: %s\n",
		formatSpan(user), formatSpan(sys), formatSpan(user+sys), formatSpan(wall))
	return err
}

// formatSpan writes a duration with three significant digits in the
// largest unit below it (s, ms, µs, ns), or in minutes and seconds from a
// minute on, as IPython does.
func formatSpan(d time.Duration) string {
	if d >= time.Minute {
		return fmt.Sprintf("%dmin %.3gs", int(d/time.Minute), (d % time.Minute).Seconds())
	}
	if d <= 0 {
		return "0 ns"
	}
	v := float64(d)
	for _, u := range []struct {
		unit  string
		scale float64
	}{{"s", 1e9}, {"ms", 1e6}, {"µs", 1e3}} {
		if v >= u.scale {
			return trimG(v/u.scale) + " " + u.unit
		}
	}
	return trimG(v) + " ns"
}

func trimG(v float64) string {
	if v >= 100 {
		return fmt.Sprintf("%.0f", math.Round(v))
	}
	return fmt.Sprintf("%.3g", v)
}

// sessionVar is a variable %who and %whos list.
type sessionVar struct {
	name, typ string
	cell      int
	value     reflect.Value
}

// sessionVars are the session's variables in the order of their
// declarations, with their Go types; those of the types filter names
// (as the types print: int, lab.Scenario, []float64) when it has any.
func (s *Session) sessionVars(filter []string) []sessionVar {
	globals := s.in.Globals()
	var out []sessionVar
	for _, sym := range s.syms.variables() {
		v, ok := globals[sym.Name]
		if !ok || !v.IsValid() {
			continue
		}
		sv := sessionVar{name: sym.Name, cell: sym.Cell, value: v, typ: v.Type().String()}
		if obj := s.checkedObject(sym.Name); obj != nil {
			sv.typ = types.TypeString(obj.Type(), func(p *types.Package) string {
				if p.Path() == "main" {
					return ""
				}
				return p.Name()
			})
		}
		if len(filter) == 0 || slices.Contains(filter, sv.typ) {
			out = append(out, sv)
		}
	}
	return out
}

// checkedObject is what Go's type checker declared for a session name.
func (s *Session) checkedObject(name string) types.Object {
	if s.check == nil {
		return nil
	}
	return s.check.objects[name]
}

// who is %who: the variables' names on one line.
func (s *Session) who(r *cellRun, p piece) error {
	vars := s.sessionVars(strings.Fields(p.text))
	if len(vars) == 0 {
		fmt.Fprintln(s.out.outW, emptyNamespace(p.text))
		return nil
	}
	names := make([]string, len(vars))
	for i, v := range vars {
		names[i] = v.name
	}
	fmt.Fprintln(s.out.outW, strings.Join(names, "\t"))
	return nil
}

func emptyNamespace(filter string) string {
	if filter != "" {
		return "No variables of type " + filter + "."
	}
	return "No variables: the session has declared none."
}

// whosValueWidth bounds a value's text in %whos.
const whosValueWidth = 60

// whos is %whos: a table of the variables with their type, the cell that
// declared them and their value on one line.
func (s *Session) whos(r *cellRun, p piece) error {
	vars := s.sessionVars(strings.Fields(p.text))
	if len(vars) == 0 {
		fmt.Fprintln(s.out.outW, emptyNamespace(p.text))
		return nil
	}
	rows := [][]string{{"Variable", "Type", "Cell", "Value"}}
	for _, v := range vars {
		rows = append(rows, []string{v.name, v.typ, fmt.Sprint(v.cell), oneLine(v.value, whosValueWidth)})
	}
	widths := make([]int, 3)
	for _, row := range rows {
		for i := range widths {
			widths[i] = max(widths[i], len([]rune(row[i])))
		}
	}
	var b strings.Builder
	for k, row := range rows {
		for i := range widths {
			b.WriteString(row[i] + strings.Repeat(" ", widths[i]-len([]rune(row[i]))+3))
		}
		b.WriteString(row[3] + "\n")
		if k == 0 {
			b.WriteString(strings.Repeat("-", widths[0]+widths[1]+widths[2]+9+len("Value")) + "\n")
		}
	}
	fmt.Fprint(s.out.outW, b.String())
	return nil
}

// oneLine is v as %v prints it, on one line and at most width runes.
func oneLine(v reflect.Value, width int) (text string) {
	defer func() {
		if recover() != nil {
			text = "(cannot be printed)"
		}
	}()
	t := strings.Join(strings.Fields(fmt.Sprint(v.Interface())), " ")
	if r := []rune(t); len(r) > width {
		return string(r[:width-1]) + "…"
	}
	return t
}

// env is %env: the environment cells see (the session's, which
// os.Getenv and os.Setenv in cells read and write), one variable of it,
// or a setting.
func (s *Session) env(r *cellRun, p piece) error {
	env := s.cellEnv()
	arg := p.text
	if arg == "" {
		vars := env.environ()
		slices.Sort(vars)
		var b strings.Builder
		for _, kv := range vars {
			name, value, _ := strings.Cut(kv, "=")
			if secretName(name) {
				value = "<hidden>"
			}
			b.WriteString(name + "=" + value + "\n")
		}
		fmt.Fprint(s.out.outW, b.String())
		return nil
	}
	name, value, set := strings.Cut(arg, "=")
	if !set {
		name, value, set = strings.Cut(arg, " ")
	}
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	if name == "" || strings.ContainsAny(name, " \t\x00=") || strings.ContainsRune(value, 0) {
		return s.usageError(r, p, p.col, fmt.Sprintf("%%env %s: not a variable name or setting (%%env NAME shows one, %%env NAME=VALUE sets it)", arg))
	}
	if !set {
		v, ok := env.lookup(name)
		if !ok {
			return s.usageError(r, p, p.col, fmt.Sprintf("%%env %s: %s is not set", name, name))
		}
		fmt.Fprintln(s.out.outW, v)
		return nil
	}
	if err := env.set(name, value); err != nil {
		return s.usageError(r, p, p.col, fmt.Sprintf("%%env %s: %v", arg, err))
	}
	fmt.Fprintf(s.out.outW, "env: %s=%s\n", name, value)
	return nil
}

// cellEnv is the environment as cells see it: the interpreter's own
// os.Environ, os.LookupEnv and os.Setenv.
type cellEnv struct {
	environ func() []string
	lookup  func(string) (string, bool)
	set     func(string, string) error
}

func (s *Session) cellEnv() cellEnv {
	env := cellEnv{environ: os.Environ, lookup: os.LookupEnv, set: os.Setenv}
	syms := s.in.Symbols("os")["os"]
	symbol := func(name string) any {
		if v := syms[name]; v.IsValid() && v.CanInterface() {
			return v.Interface()
		}
		return nil
	}
	if f, ok := symbol("Environ").(func() []string); ok {
		env.environ = f
	}
	if f, ok := symbol("LookupEnv").(func(string) (string, bool)); ok {
		env.lookup = f
	}
	if f, ok := symbol("Setenv").(func(string, string) error); ok {
		env.set = f
	}
	return env
}

// secretName tells a variable whose value %env does not print whole.
func secretName(name string) bool {
	u := strings.ToUpper(name)
	for _, w := range []string{"SECRET", "TOKEN", "PASSWORD", "PASSWD", "API_KEY", "PRIVATE_KEY"} {
		if strings.Contains(u, w) {
			return true
		}
	}
	return false
}
