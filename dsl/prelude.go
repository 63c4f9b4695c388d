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
`

// preludeSlices adds to yaegi's interpreted slices package the functions of
// Go's slices/sort.go it lacks, plus Collect and Sorted over slices (Go's
// take iterators, which yaegi v0.16.1 cannot range over).
const preludeSlices = `package slices

import (
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

// Collect returns a copy of x. (Go's Collect takes an iterator; here,
// maps.Keys and maps.Values return slices.)
func Collect[E any](x []E) []E { return append([]E(nil), x...) }

// Sorted returns a sorted copy of x. (Go's Sorted takes an iterator.)
func Sorted[E _rl_ordered](x []E) []E {
	c := append([]E(nil), x...)
	_rl.Sort(c)
	return c
}
`

// preludeMaps adds Keys and Values to yaegi's interpreted maps package and
// replaces its Clone, which does not copy.
// They return slices, in increasing key order when keys are ordered, so
// cells iterate maps deterministically.
const preludeMaps = `package maps

import _rl "` + runtimePath + `"

// Keys returns the keys of m, sorted when they are numbers or strings.
func Keys[K comparable, V any](m map[K]V) []K {
	r := make([]K, 0, len(m))
	for k := range m {
		r = append(r, k)
	}
	_rl.SortKeys(r)
	return r
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

// Values returns the values of m, in the order of Keys(m).
func Values[K comparable, V any](m map[K]V) []V {
	r := make([]V, 0, len(m))
	for _, k := range Keys(m) {
		r = append(r, m[k])
	}
	return r
}
`
