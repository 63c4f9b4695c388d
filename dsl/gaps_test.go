package dsl

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/routelab/routelab/display"
)

// Every rewrite pass (passes.go) closes a gap of the interpreter. Each gap
// has a reproducer here, run with its pass turned off (the gap must still be
// there: when the interpreter no longer has it, delete the pass) and on
// (Go's behaviour). The cells run in order in one session; the outcome of
// the last one is compared.
var gaps = map[string]struct {
	cells   []string
	off, on string // substrings of the last cell's outcome
}{
	passTopLevelDefer: {[]string{"defer println(\"deferred\")", "1"},
		"deferred", "=> 1"},
	passTypeParams: {[]string{"type T int", "func id[T any](x T) T { return x }", "id(\"s\")", "var t T = 3\nt"},
		"ERR", "=> 3"},
	passRangeInt: {[]string{"t := 0\nfor i := range 4 {\n\tt += i\n}\nt"},
		"cannot range over 4", "=> 6"},
	passLoopVars: {[]string{"var fs []func() int\nfor i := 0; i < 3; i++ {\n\tfs = append(fs, func() int { return i })\n}\nfs[0]() + fs[1]()*10 + fs[2]()*100"},
		"=> 333", "=> 210"},
	passCompiledGenerics: {[]string{"import \"math/rand/v2\"", "rand.N(10)"},
		"undefined: rand.N", "use rand.IntN"},
	passGoroutineRecover: {[]string{"done := make(chan bool)\ngo func() {\n\tdefer close(done)\n\tpanic(\"lost\")\n}()\n<-done\n\"alive\""},
		"", "=> \"alive\""}, // off: the process dies (TestGapGoroutineRecoverOff)
}

func TestEveryPassHasItsGap(t *testing.T) {
	for _, p := range passes {
		if _, ok := gaps[p.name]; !ok {
			t.Errorf("pass %s has no gap reproducer", p.name)
		}
	}
	if len(gaps) != len(passes) {
		t.Errorf("%d gaps for %d passes", len(gaps), len(passes))
	}
}

func TestGapsAreThereAndClosed(t *testing.T) {
	for _, p := range passes {
		g := gaps[p.name]
		for _, off := range []bool{true, false} {
			if off && p.name == passGoroutineRecover {
				continue // would end this process
			}
			got := runGap(t, p.name, g.cells, off)
			want := g.on
			if off {
				want = g.off
			}
			if !strings.Contains(got, want) {
				t.Errorf("%s (pass off: %v): outcome %q, want %q", p.name, off, got, want)
			}
		}
	}
}

// TestGapGoroutineRecoverOff shows in a child process that without its pass,
// a goroutine's panic ends the process.
func TestGapGoroutineRecoverOff(t *testing.T) {
	if os.Getenv("ROUTELAB_GAP_CHILD") == "1" {
		runGap(t, passGoroutineRecover, gaps[passGoroutineRecover].cells, true)
		// The cell itself may return before the panic, unrecovered, reaches
		// the top of its goroutine and ends the process.
		time.Sleep(5 * time.Second)
		t.Fatal("the process survived")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestGapGoroutineRecoverOff$")
	cmd.Env = append(os.Environ(), "ROUTELAB_GAP_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "lost") {
		t.Errorf("without the pass the process should die of the panic; exit %v, output:\n%s", err, out)
	}
}

func runGap(t *testing.T, pass string, cells []string, off bool) string {
	t.Helper()
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if off {
		s.disabledPasses = map[string]bool{pass: true}
	}
	var out string
	for _, c := range cells {
		out = gapOutcome(s, c)
	}
	return out
}

// gapOutcome is a cell's output, value and error as one string.
func gapOutcome(s *Session, code string) string {
	var k textSink
	b, err := s.Execute(context.Background(), code, &k)
	out := k.b.String()
	if b != nil {
		out += "=> " + b.Text()
	}
	if err != nil {
		out += "ERR " + err.Error()
	}
	return out
}

type textSink struct{ b strings.Builder }

func (t *textSink) Stream(_, s string)                         { t.b.WriteString(s) }
func (t *textSink) Display(b display.Bundle, _ string, _ bool) { t.b.WriteString(b.Text()) }
func (t *textSink) Clear(bool)                                 {}

// docs/dsl.md has a row for every pass.
func TestPassesAreDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/dsl.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range passes {
		if !strings.Contains(string(doc), "| `"+p.name+"` |") {
			t.Errorf("docs/dsl.md has no row for the pass %s", p.name)
		}
	}
}
