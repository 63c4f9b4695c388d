package dsl_test

import "testing"

// A go statement evaluates its function value, a method value with its
// receiver or a function field, and its arguments where it stands, as Go
// does, though the cell's rewriting moves the call into a function literal
// (Go's fixedbugs/bug512.go: the goroutine saw the receiver's later
// changes).
func TestGoStatementEvaluatesItsCallFirst(t *testing.T) {
	s := newSession(t)
	run(t, s, `type recvT struct{ n int }
func (r recvT) show(out chan int) { out <- r.n }
type holder struct{ f func(chan int) }`)
	got := run(t, s, `out := make(chan int, 3)
r := recvT{1}
go r.show(out)
r.n = 2
p := &r
go p.show(out)
r.n = 3
h := holder{f: func(c chan int) { c <- 10 }}
go h.f(out)
h.f = func(c chan int) { c <- 20 }
a, b, c := <-out, <-out, <-out
a + b + c`)
	if got != "13" {
		t.Errorf("got %s, want 13 (1 + 2 + 10)", got)
	}
}
