package dsl_test

import "testing"

// The interpreter's own inference of type arguments does not unify through
// generic types, function types or constraints as Go's does (Go's tests
// typeparam/map.go, value.go, issue48453.go): a cell's call of a generic
// function gets the type arguments Go inferred written out.
func TestInferredTypeArguments(t *testing.T) {
	s := newSession(t)
	run(t, s, `type value[T any] struct{ val T }

func set[T any](v *value[T], val T) { v.val = val }

func mapper[F, T any](s []F, f func(F) T) []T {
	r := make([]T, len(s))
	for i, v := range s {
		r[i] = f(v)
	}
	return r
}

func keys[M interface{ ~map[K]V }, K comparable, V any](m M) int { return len(m) }

func get[T any](v value[T]) T { return v.val }

// The type arguments of a call in a generic function are its own type
// parameters.
func boxed[T any](x T) T { return get(value[T]{x}) }`)
	cases := []struct{ src, want string }{
		{"var v value[int]\nset(&v, 3)\nv.val", "3"},
		{`mapper([]int{1, 2}, func(i int) string { return "x" })`, "[x x]"},
		{"n := keys(map[string]bool{\"a\": true})\nn", "1"},
		{"keys(map[string]bool{\"a\": true})", "1"},
		{"boxed(2.5)", "2.5"},
		// set, like the instrumentation's _rl, is three letters long: only
		// the call is rewritten.
		{"var w value[string]\nset(&w, \"s\")\nw.val", `"s"`},
	}
	for _, c := range cases {
		if got := run(t, s, c.src); got != c.want {
			t.Errorf("%s = %s, want %s", c.src, got, c.want)
		}
	}
}

// A range over an integer of a named type (Go's range3.go) is one: the
// rewrite's own classification did not know MyInt(4) was an integer.
func TestRangeOverNamedInteger(t *testing.T) {
	s := newSession(t)
	run(t, s, "type MyInt int")
	if got := run(t, s, "n := 0\nfor i := range MyInt(4) {\n\tn += int(i)\n}\nn"); got != "6" {
		t.Errorf("n = %s, want 6", got)
	}
}

// A blank type parameter is not renamed: renaming it renamed every blank
// identifier of the body (`_ = g()` assigned to the type parameter, Go's
// typeparam/issue47723.go).
func TestBlankTypeParameter(t *testing.T) {
	s := newSession(t)
	run(t, s, `func f[_ any]() int {
	_ = func() int { return 1 }()
	var a [2]int
	return a[func() int { return 1 }()] + 2
}

type pair[_, V any] struct{ v V }

func (p pair[_, V]) get() V {
	_ = p
	return p.v
}`)
	if got := run(t, s, `f[int]()*10 + len(pair[int, string]{"xy"}.get())`); got != "22" {
		t.Errorf("got %s, want 22", got)
	}
}
