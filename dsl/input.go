package dsl

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"reflect"
	"sync"

	"github.com/routelab/routelab/display"
	"github.com/traefik/yaegi/interp"
)

// Input: a cell that reads standard input the way Go programs do —
// fmt.Scan, fmt.Scanln and fmt.Scanf, or a bufio.Reader or bufio.Scanner
// over os.Stdin — gets each line from its front end (Jupyter's
// input_request, when the client allows stdin), or the error
// display.ErrNoInput at once when nobody can answer: a read never hangs.
// Scripts keep Go's meaning of an empty standard input (end of file).
//
// os.Stdin itself stays an *os.File (the null device), as the type checker
// knows it: reads of it that do not go through those functions see end of
// file. fmt.Scan, Scanln and Scanf read the interpreter's Stdin option,
// which is the session's input; the functions that take a reader are
// replaced in the interpreter's tables by ones that read the session's
// input instead when given os.Stdin.

// cellInput is the session's standard input as cells read it.
type cellInput struct {
	s   *Session
	mu  sync.Mutex
	buf []byte
}

func (in *cellInput) Read(p []byte) (int, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if len(in.buf) == 0 {
		line, err := in.s.inputLine()
		if err != nil {
			return 0, err
		}
		in.buf = append(in.buf, line+"\n"...)
	}
	n := copy(p, in.buf)
	in.buf = in.buf[n:]
	return n, nil
}

// inputLine asks the running cell's front end for a line, after the output
// written so far (the cell's prompt) has been delivered.
func (s *Session) inputLine() (string, error) {
	if s.script {
		return "", io.EOF
	}
	r := s.current()
	if r == nil {
		return "", display.ErrNoInput
	}
	ask, ok := r.sink.(display.Inputter)
	if !ok {
		return "", display.ErrNoInput
	}
	s.out.flush()
	return ask.Input(r.ctx, "", false)
}

// inputSymbols are the session's standard input as the interpreter's
// Stdin option (fmt.Scan, Scanln and Scanf read it), and fmt's and bufio's
// functions that read a reader, reading it instead when given os.Stdin.
func (s *Session) inputSymbols() (stdin io.Reader, fmtSyms, bufioSyms map[string]reflect.Value) {
	in := &cellInput{s: s}
	orStdin := func(r io.Reader) io.Reader {
		if f, ok := r.(*os.File); ok && f == s.devnull {
			return in
		}
		return r
	}
	fmtSyms = map[string]reflect.Value{
		"Fscan":   reflect.ValueOf(func(r io.Reader, a ...any) (int, error) { return fmt.Fscan(orStdin(r), a...) }),
		"Fscanln": reflect.ValueOf(func(r io.Reader, a ...any) (int, error) { return fmt.Fscanln(orStdin(r), a...) }),
		"Fscanf": reflect.ValueOf(func(r io.Reader, format string, a ...any) (int, error) {
			return fmt.Fscanf(orStdin(r), format, a...)
		}),
	}
	bufioSyms = map[string]reflect.Value{
		"NewReader":     reflect.ValueOf(func(r io.Reader) *bufio.Reader { return bufio.NewReader(orStdin(r)) }),
		"NewReaderSize": reflect.ValueOf(func(r io.Reader, size int) *bufio.Reader { return bufio.NewReaderSize(orStdin(r), size) }),
		"NewScanner":    reflect.ValueOf(func(r io.Reader) *bufio.Scanner { return bufio.NewScanner(orStdin(r)) }),
	}
	return in, fmtSyms, bufioSyms
}

// withSymbols is a copy of std with the symbols of over in place of its
// own; std, shared by every session, is left as it is.
func withSymbols(std interp.Exports, over map[string]map[string]reflect.Value) interp.Exports {
	out := make(interp.Exports, len(std))
	for k, v := range std {
		out[k] = v
	}
	for k, syms := range over {
		merged := make(map[string]reflect.Value, len(std[k])+len(syms))
		for n, v := range std[k] {
			merged[n] = v
		}
		for n, v := range syms {
			merged[n] = v
		}
		out[k] = merged
	}
	return out
}
