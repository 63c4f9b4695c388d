package dsl_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/dsl"
)

// asker is a sink that answers input with its lines, or blocks until the
// cell is interrupted when it has none left.
type asker struct {
	*recorder
	lines []string
	asked chan struct{}
}

func (a *asker) Input(ctx context.Context, prompt string, password bool) (string, error) {
	a.asked <- struct{}{}
	if len(a.lines) == 0 {
		<-ctx.Done()
		return "", ctx.Err()
	}
	l := a.lines[0]
	a.lines = a.lines[1:]
	return l, nil
}

// A cell's reads of standard input get the front end's lines, whichever
// way Go reads them.
func TestInputFromTheFrontEnd(t *testing.T) {
	s := newSession(t)
	a := &asker{recorder: &recorder{}, lines: []string{"Ada", "2 3", "a line", "scanned"}, asked: make(chan struct{}, 10)}
	code := `var name string
fmt.Print("name? ")
fmt.Scanln(&name)
var x, y int
fmt.Fscan(os.Stdin, &x, &y)
line, _ := bufio.NewReader(os.Stdin).ReadString('\n')
sc := bufio.NewScanner(os.Stdin)
sc.Scan()
fmt.Printf("%s %d %q %s\n", name, x+y, line, sc.Text())`
	if _, err := s.Execute(context.Background(), code, a); err != nil {
		t.Fatal(err)
	}
	if got, want := a.stdout(), "name? Ada 5 \"a line\\n\" scanned\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
	if len(a.asked) != 4 {
		t.Errorf("asked %d times, want 4", len(a.asked))
	}
}

// Without a front end that answers, a read fails at once with the no-input
// error; a script's standard input is empty, as a Go program's with
// nothing piped in.
func TestInputWithoutAFrontEnd(t *testing.T) {
	s := newSession(t)
	done := make(chan string, 1)
	go func() { done <- run(t, s, "var x int\n_, err := fmt.Scanln(&x)\nerr.Error()") }()
	select {
	case got := <-done:
		if want := display.ErrNoInput.Error(); got != `"`+want+`"` {
			t.Errorf("headless read: %s, want %q", got, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a read of standard input without a front end hangs")
	}
	sc, err := dsl.New(dsl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	var out bytes.Buffer
	if err := sc.RunScript(context.Background(), "var x int\n_, err := fmt.Scan(&x)\nfmt.Println(err)", &out, &out); err != nil || out.String() != "EOF\n" {
		t.Errorf("a script's read: %q, %v; want EOF", out.String(), err)
	}
}

// An interrupt ends a cell that waits for input, and the session goes on.
func TestInterruptWhileWaitingForInput(t *testing.T) {
	s := newSession(t)
	run(t, s, "kept := 3")
	a := &asker{recorder: &recorder{}, asked: make(chan struct{}, 1)}
	errc := make(chan error, 1)
	go func() {
		_, err := s.Execute(context.Background(), "var v string\nfmt.Scanln(&v)\nfor {}", a)
		errc <- err
	}()
	<-a.asked
	s.Interrupt()
	select {
	case err := <-errc:
		if err == nil || !strings.Contains(err.Error(), dsl.Interrupted) {
			t.Errorf("interrupted while waiting for input: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the interrupt did not end a cell waiting for input")
	}
	if got := run(t, s, "kept"); got != "3" {
		t.Errorf("kept = %s after the interrupt", got)
	}
}

// A script whose main goroutine ends in runtime.Goexit goes on as a Go
// program does: another goroutine's os.Exit ends it with its code, and with
// none left it is Go's deadlock error.
func TestScriptMainGoexit(t *testing.T) {
	script := func(src string) (string, error) {
		s, err := dsl.New(dsl.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		var out bytes.Buffer
		err = s.RunScript(context.Background(), src, &out, &out)
		return out.String(), err
	}
	out, err := script(`package main

import (
	"fmt"
	"os"
	"runtime"
	"time"
)

func main() {
	go func() {
		time.Sleep(20 * time.Millisecond)
		fmt.Println("the other goroutine ends it")
		os.Exit(3)
	}()
	runtime.Goexit()
}`)
	var exit *dsl.ExitError
	if !errors.As(err, &exit) || exit.Code != 3 || out != "the other goroutine ends it\n" {
		t.Errorf("Goexit, then os.Exit(3) in a goroutine: %q, %v; want the goroutine's line and exit status 3", out, err)
	}
	_, err = script("package main\n\nimport \"runtime\"\n\nfunc main() { runtime.Goexit() }")
	if err == nil || !strings.Contains(err.Error(), "no goroutines (main called runtime.Goexit) - deadlock!") {
		t.Errorf("Goexit with no other goroutine: %v, want Go's deadlock error", err)
	}
}
