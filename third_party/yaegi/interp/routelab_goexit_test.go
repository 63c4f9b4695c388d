package interp_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// runtime.Goexit in the program's main goroutine ends the evaluation with
// ErrGoexit (it returned as if the program had ended normally, while Go runs
// the other goroutines on).
func TestRoutelabGoexitInMainGoroutine(t *testing.T) {
	var out strings.Builder
	i := interp.New(interp.Options{Stdout: &out, Stderr: io.Discard})
	if err := i.Use(stdlib.Symbols()); err != nil {
		t.Fatal(err)
	}
	prog, err := i.Compile(`package main

import (
	"fmt"
	"runtime"
)

func main() {
	done := make(chan bool)
	go func() {
		defer func() { done <- true }()
		runtime.Goexit()
	}()
	<-done
	defer fmt.Println("deferred")
	runtime.Goexit()
}
`)
	if err != nil {
		t.Fatal(err)
	}
	_, err = i.ExecuteWithContext(context.Background(), prog)
	if !errors.Is(err, interp.ErrGoexit) || out.String() != "deferred\n" {
		t.Errorf("got %v, output %q; want ErrGoexit after \"deferred\"", err, out.String())
	}
}
