package interp_test

import "testing"

// A method value evaluates its receiver where it is taken: `f := s.M`,
// `defer s.M()` and `go s.M()` copy a value receiver then (the call saw
// later changes to s), a pointer receiver is the address taken then.
func TestRoutelabMethodValueReceiver(t *testing.T) {
	src := `package main

import "fmt"

type S struct{ n int }

func (s S) Get() int { return s.n }

func (s *S) Ptr() int { return s.n }

func deferred() (r int) {
	s := S{1}
	defer func() { r = r*10 + 0 }()
	defer s.Get()
	s.n = 2
	return s.Get()
}

func main() {
	s := S{1}
	f := s.Get
	g := s.Ptr
	p := &s
	h := p.Get
	s.n = 3
	done := make(chan int)
	go func(get func() int) { done <- get() }(s.Get)
	s.n = 4
	fmt.Println(f(), g(), h(), <-done, deferred())
}
`
	if got, want := runProgram(t, src), "1 4 1 3 20\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
