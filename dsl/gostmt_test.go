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

// A nil argument of a go statement is passed as is (go f(nil) was refused
// with "use of untyped nil in assignment": Go's fixedbugs/issue25897a.go).
func TestGoStatementNilArgument(t *testing.T) {
	s := newSession(t)
	got := run(t, s, `out := make(chan bool, 2)
f := func(p *int, e error) { out <- p == nil && e == nil }
go f(nil, nil)
var g func(m map[int]int) = func(m map[int]int) { out <- m == nil }
go g(nil)
<-out && <-out`)
	if got != "true" {
		t.Errorf("got %s, want true", got)
	}
}
