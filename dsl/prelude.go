package dsl

// preludeMain is evaluated in package main of every session before the
// first cell. Names starting with _rl are hidden from completion.
const preludeMain = `import (
	_rl "` + runtimePath + `"
	_rlfmt "fmt"
)

type _rl_ordered interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64 | ~string
}

// min returns the smallest of its arguments, like Go's builtin min.
func min[T _rl_ordered](x T, y ...T) T {
	for _, v := range y {
		if v < x {
			x = v
		}
	}
	return x
}

// max returns the largest of its arguments, like Go's builtin max.
func max[T _rl_ordered](x T, y ...T) T {
	for _, v := range y {
		if v > x {
			x = v
		}
	}
	return x
}

// clear deletes all entries of a map or zeroes all elements of a slice,
// like Go's builtin clear.
func clear(v any) { _rl.Clear(v) }

// display shows v in the cell's output: as HTML, SVG, Markdown or JSON when
// it is a compiled value with the matching method (HTML() string,
// SVG() (string, error), Markdown() string, JSONValue() any), and as text
// always (through its String or Error method when it has one).
func display(v any) { _rl_display(v, "", false) }

// displayWithID shows v like display and names the output id, so that
// updateDisplay can replace it later, even from a later cell.
func displayWithID(v any, id string) { _rl_display(v, id, false) }

// updateDisplay replaces the output shown earlier with displayWithID(_, id).
func updateDisplay(v any, id string) { _rl_display(v, id, true) }

func _rl_display(v any, id string, update bool) {
	if v == nil || _rl.Native(v) {
		_rl.Display(v, id, update)
		return
	}
	_rl.DisplayRich(v, _rl_rich(v), id, update)
}

func _rl_show(vs ...any) {
	for _, v := range vs {
		if v == nil {
			_rl.Show(nil)
		} else if _rl.Native(v) {
			_rl.Show(v)
		} else {
			_rl.ShowRich(v, _rl_rich(v))
		}
	}
}

// _rl_rich gives the text of a value of an interpreted type from its String
// or Error method, which compiled code cannot call. (Only these are
// reliably visible: yaegi v0.16.1 cannot assert interpreted values to other
// interfaces.)
func _rl_rich(v any) map[string]any {
	m := map[string]any{}
	if v == nil {
		return m
	}
	if x, ok := v.(error); ok {
		m["text/plain"] = x.Error()
	} else if x, ok := v.(_rlfmt.Stringer); ok {
		m["text/plain"] = x.String()
	}
	return m
}

// displayHTML shows html as an HTML output.
func displayHTML(html string) { _rl.DisplayMIME("text/html", html) }

// displayMarkdown shows md as a Markdown output.
func displayMarkdown(md string) { _rl.DisplayMIME("text/markdown", md) }

// displaySVG shows an SVG document.
func displaySVG(svg string) { _rl.DisplayMIME("image/svg+xml", svg) }

// clearOutput clears the cell's output so far; with wait, only when new
// output arrives (for progress readouts that redraw in place).
func clearOutput(wait bool) { _rl.ClearOutput(wait) }

func _rl_goPanic(r any) { _rl.GoPanic(r) }

func _rl_goLive(d int) { _rl.GoLive(d) }
`

// preludeSlices adds to yaegi's interpreted slices package the functions of
// Go's slices/sort.go and slices/iter.go it lacks. The iterators they take
// are declared as function types: the interpreter infers type arguments
// from those only.
const preludeSlices = `package slices

import (
	"iter"
	"sort"

	_rl "` + runtimePath + `"
)

type _rl_ordered interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64 | ~string
}

// Sort sorts x in increasing order.
func Sort[E _rl_ordered](x []E) { _rl.Sort(x) }

// SortFunc sorts x in increasing order as determined by cmp.
func SortFunc[E any](x []E, cmp func(a, b E) int) {
	sort.Slice(x, func(i, j int) bool { return cmp(x[i], x[j]) < 0 })
}

// SortStableFunc sorts x as SortFunc, keeping equal elements in order.
func SortStableFunc[E any](x []E, cmp func(a, b E) int) {
	sort.SliceStable(x, func(i, j int) bool { return cmp(x[i], x[j]) < 0 })
}

// IsSorted reports whether x is sorted in increasing order.
func IsSorted[E _rl_ordered](x []E) bool {
	for i := len(x) - 1; i > 0; i-- {
		if x[i] < x[i-1] {
			return false
		}
	}
	return true
}

// IsSortedFunc reports whether x is sorted as determined by cmp.
func IsSortedFunc[E any](x []E, cmp func(a, b E) int) bool {
	for i := len(x) - 1; i > 0; i-- {
		if cmp(x[i], x[i-1]) < 0 {
			return false
		}
	}
	return true
}

// Min returns the smallest element of x; it panics if x is empty.
func Min[E _rl_ordered](x []E) E {
	if len(x) < 1 {
		panic("slices.Min: empty list")
	}
	m := x[0]
	for _, v := range x[1:] {
		if v < m {
			m = v
		}
	}
	return m
}

// Max returns the largest element of x; it panics if x is empty.
func Max[E _rl_ordered](x []E) E {
	if len(x) < 1 {
		panic("slices.Max: empty list")
	}
	m := x[0]
	for _, v := range x[1:] {
		if v > m {
			m = v
		}
	}
	return m
}

// MinFunc returns the smallest element of x as determined by cmp (the first
// one among equals); it panics if x is empty.
func MinFunc[E any](x []E, cmp func(a, b E) int) E {
	if len(x) < 1 {
		panic("slices.MinFunc: empty list")
	}
	m := x[0]
	for _, v := range x[1:] {
		if cmp(v, m) < 0 {
			m = v
		}
	}
	return m
}

// MaxFunc returns the largest element of x as determined by cmp (the first
// one among equals); it panics if x is empty.
func MaxFunc[E any](x []E, cmp func(a, b E) int) E {
	if len(x) < 1 {
		panic("slices.MaxFunc: empty list")
	}
	m := x[0]
	for _, v := range x[1:] {
		if cmp(v, m) > 0 {
			m = v
		}
	}
	return m
}

// BinarySearch searches for target in the sorted slice x and returns the
// position where it is or would be, and whether it is there.
func BinarySearch[E _rl_ordered](x []E, target E) (int, bool) {
	i := sort.Search(len(x), func(i int) bool { return x[i] >= target })
	return i, i < len(x) && x[i] == target
}

// All returns an iterator over the indexes and values of x.
func All[E any](x []E) iter.Seq2[int, E] {
	return func(yield func(int, E) bool) {
		for i, v := range x {
			if !yield(i, v) {
				return
			}
		}
	}
}

// Values returns an iterator over the values of x.
func Values[E any](x []E) iter.Seq[E] {
	return func(yield func(E) bool) {
		for _, v := range x {
			if !yield(v) {
				return
			}
		}
	}
}

// Backward returns an iterator over the indexes and values of x, from the
// last to the first.
func Backward[E any](x []E) iter.Seq2[int, E] {
	return func(yield func(int, E) bool) {
		for i := len(x) - 1; i >= 0; i-- {
			if !yield(i, x[i]) {
				return
			}
		}
	}
}

// AppendSeq appends the values of seq to x and returns the result.
func AppendSeq[E any](x []E, seq func(yield func(E) bool)) []E {
	for v := range seq {
		x = append(x, v)
	}
	return x
}

// Collect returns the values of seq in a new slice.
func Collect[E any](seq func(yield func(E) bool)) []E {
	var r []E
	for v := range seq {
		r = append(r, v)
	}
	return r
}

// Sorted returns the values of seq in a new slice, sorted.
func Sorted[E _rl_ordered](seq func(yield func(E) bool)) []E {
	r := Collect(seq)
	_rl.Sort(r)
	return r
}

// SortedFunc returns the values of seq in a new slice, sorted as
// determined by cmp.
func SortedFunc[E any](seq func(yield func(E) bool), cmp func(a, b E) int) []E {
	r := Collect(seq)
	SortFunc(r, cmp)
	return r
}

// SortedStableFunc is SortedFunc keeping the order of equal values.
func SortedStableFunc[E any](seq func(yield func(E) bool), cmp func(a, b E) int) []E {
	r := Collect(seq)
	SortStableFunc(r, cmp)
	return r
}

// Chunk returns an iterator over consecutive sub-slices of up to n
// elements of x; it panics if n is less than 1.
func Chunk[E any](x []E, n int) iter.Seq[[]E] {
	if n < 1 {
		panic("cannot be less than 1")
	}
	return func(yield func([]E) bool) {
		for i := 0; i < len(x); i += n {
			end := min(n, len(x[i:]))
			if !yield(x[i : i+end : i+end]) {
				return
			}
		}
	}
}
`

// preludeMaps adds Go's maps/iter.go to yaegi's interpreted maps package
// and replaces its Clone, which does not copy. Keys, Values and All go in
// increasing key order when keys are numbers or strings (one of the orders
// Go may give), so cells iterate maps deterministically.
const preludeMaps = `package maps

import (
	"iter"

	_rl "` + runtimePath + `"
)

// keys returns the keys of m, sorted when they are numbers or strings.
func keys[K comparable, V any](m map[K]V) []K {
	r := make([]K, 0, len(m))
	for k := range m {
		r = append(r, k)
	}
	_rl.SortKeys(r)
	return r
}

// Keys returns an iterator over the keys of m, sorted when they are
// numbers or strings.
func Keys[K comparable, V any](m map[K]V) iter.Seq[K] {
	return func(yield func(K) bool) {
		for _, k := range keys(m) {
			// A key deleted by the loop is not yielded, as in Go (k != k: NaN).
			if _, ok := m[k]; (ok || k != k) && !yield(k) {
				return
			}
		}
	}
}

// Values returns an iterator over the values of m, in the order of Keys(m).
func Values[K comparable, V any](m map[K]V) iter.Seq[V] {
	return func(yield func(V) bool) {
		for _, k := range keys(m) {
			if v, ok := m[k]; ok && !yield(v) {
				return
			}
		}
	}
}

// All returns an iterator over the key-value pairs of m, in the order of
// Keys(m).
func All[K comparable, V any](m map[K]V) iter.Seq2[K, V] {
	return func(yield func(K, V) bool) {
		for _, k := range keys(m) {
			if v, ok := m[k]; ok && !yield(k, v) {
				return
			}
		}
	}
}

// Insert adds the key-value pairs of seq to m.
func Insert[K comparable, V any](m map[K]V, seq func(yield func(K, V) bool)) {
	for k, v := range seq {
		m[k] = v
	}
}

// Collect returns a new map of the key-value pairs of seq.
func Collect[K comparable, V any](seq func(yield func(K, V) bool)) map[K]V {
	m := map[K]V{}
	for k, v := range seq {
		m[k] = v
	}
	return m
}

// Clone returns a copy of m (yaegi's own returns m itself).
func Clone[K comparable, V any](m map[K]V) map[K]V {
	if m == nil {
		return nil
	}
	r := make(map[K]V, len(m))
	for k, v := range m {
		r[k] = v
	}
	return r
}
`
