package dsl

import (
	"encoding/binary"
	"fmt"
	mathrand "math/rand"
	randv2 "math/rand/v2"
	"reflect"
	"strings"
	"time"
)

// Calls from compiled code back into cells — a scripted policy's decisions
// during a lab run — go through Host.Callback. Callbacks are serialised, so
// cell code never runs on two goroutines at once on a library's behalf; and
// while one runs, the top-level functions of math/rand and math/rand/v2 in
// cells draw from the generator the library passed, so that a randomised
// scripted policy makes the same decisions on every run of a seed. Outside
// callbacks they behave as in Go.

// RandSource is a library's random stream (engine.Rand is one).
type RandSource interface {
	Uint64() uint64
}

// cellRand is the pair of generators math/rand and math/rand/v2 draw from
// during a callback.
type cellRand struct {
	src RandSource
	v1  *mathrand.Rand
	v2  *randv2.Rand
}

// v1Source adapts a RandSource to math/rand's Source64.
type v1Source struct{ src RandSource }

func (s v1Source) Int63() int64   { return int64(s.src.Uint64() >> 1) }
func (s v1Source) Uint64() uint64 { return s.src.Uint64() }
func (s v1Source) Seed(int64)     {}
func (s v1Source) String() string { return "the run's generator" }
func (r *cellRand) fill(p []byte) {
	var b [8]byte
	for len(p) > 0 {
		binary.LittleEndian.PutUint64(b[:], r.src.Uint64())
		p = p[copy(p, b[:]):]
	}
}

// callback runs call (cell code called by a library) under the session's
// callback lock, with the cells' random functions drawing from src. A panic
// in call is raised again as a *CallbackPanic that locates it in the cells.
func (s *Session) callback(src RandSource, call func()) {
	s.cbMu.Lock()
	defer s.cbMu.Unlock()
	if src != nil {
		if s.lastRand == nil || s.lastRand.src != src {
			s.lastRand = &cellRand{src: src, v1: mathrand.New(v1Source{src}), v2: randv2.New(src)}
		}
		s.rand.Store(s.lastRand)
		defer s.rand.Store(nil)
	}
	s.out.stderr.take() // frames of earlier panics are not this call's
	s.calling.Store(true)
	defer s.calling.Store(false)
	defer func() {
		if r := recover(); r != nil {
			panic(&CallbackPanic{Value: r, Where: s.traceback(s.out.stderr.take())})
		}
	}()
	call()
}

// CallbackPanic is a panic of cell code called back by a library: the
// value, and where in the cells it happened.
type CallbackPanic struct {
	Value any
	Where []string // traceback lines, innermost first
}

func (p *CallbackPanic) Error() string {
	msg := fmt.Sprint(p.Value)
	if err, ok := p.Value.(error); ok {
		msg = err.Error()
	}
	if goMsg, ok := goRuntimeError(p.Value); ok {
		msg = goMsg
	}
	if len(p.Where) == 0 {
		return msg
	}
	return msg + " (" + strings.Join(trimmed(p.Where), "; ") + ")"
}

func (p *CallbackPanic) Unwrap() error {
	err, _ := p.Value.(error)
	return err
}

func trimmed(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimSpace(l)
	}
	return out
}

// randSymbols replace the top-level functions of math/rand and
// math/rand/v2 in cells by ones that draw from the callback's generator
// while a callback runs.
func (s *Session) randSymbols() (v1, v2 map[string]reflect.Value) {
	r1 := func() *mathrand.Rand {
		if r := s.rand.Load(); r != nil {
			return r.v1
		}
		return nil
	}
	r2 := func() *randv2.Rand {
		if r := s.rand.Load(); r != nil {
			return r.v2
		}
		return nil
	}
	v1 = map[string]reflect.Value{
		"ExpFloat64":  reflect.ValueOf(func() float64 { return or1(r1, (*mathrand.Rand).ExpFloat64, mathrand.ExpFloat64) }),
		"Float32":     reflect.ValueOf(func() float32 { return or1(r1, (*mathrand.Rand).Float32, mathrand.Float32) }),
		"Float64":     reflect.ValueOf(func() float64 { return or1(r1, (*mathrand.Rand).Float64, mathrand.Float64) }),
		"Int":         reflect.ValueOf(func() int { return or1(r1, (*mathrand.Rand).Int, mathrand.Int) }),
		"Int31":       reflect.ValueOf(func() int32 { return or1(r1, (*mathrand.Rand).Int31, mathrand.Int31) }),
		"Int63":       reflect.ValueOf(func() int64 { return or1(r1, (*mathrand.Rand).Int63, mathrand.Int63) }),
		"NormFloat64": reflect.ValueOf(func() float64 { return or1(r1, (*mathrand.Rand).NormFloat64, mathrand.NormFloat64) }),
		"Uint32":      reflect.ValueOf(func() uint32 { return or1(r1, (*mathrand.Rand).Uint32, mathrand.Uint32) }),
		"Uint64":      reflect.ValueOf(func() uint64 { return or1(r1, (*mathrand.Rand).Uint64, mathrand.Uint64) }),
		"Intn":        reflect.ValueOf(func(n int) int { return orN(r1, (*mathrand.Rand).Intn, mathrand.Intn, n) }),
		"Int31n":      reflect.ValueOf(func(n int32) int32 { return orN(r1, (*mathrand.Rand).Int31n, mathrand.Int31n, n) }),
		"Int63n":      reflect.ValueOf(func(n int64) int64 { return orN(r1, (*mathrand.Rand).Int63n, mathrand.Int63n, n) }),
		"Perm":        reflect.ValueOf(func(n int) []int { return orN(r1, (*mathrand.Rand).Perm, mathrand.Perm, n) }),
		"Shuffle": reflect.ValueOf(func(n int, swap func(i, j int)) {
			if r := r1(); r != nil {
				r.Shuffle(n, swap)
				return
			}
			mathrand.Shuffle(n, swap)
		}),
		"Read": reflect.ValueOf(func(p []byte) (int, error) {
			if r := s.rand.Load(); r != nil {
				r.fill(p)
				return len(p), nil
			}
			return mathrand.Read(p) //lint:ignore SA1019 cells may call the deprecated function
		}),
	}
	v2 = map[string]reflect.Value{
		"ExpFloat64":  reflect.ValueOf(func() float64 { return or1(r2, (*randv2.Rand).ExpFloat64, randv2.ExpFloat64) }),
		"Float32":     reflect.ValueOf(func() float32 { return or1(r2, (*randv2.Rand).Float32, randv2.Float32) }),
		"Float64":     reflect.ValueOf(func() float64 { return or1(r2, (*randv2.Rand).Float64, randv2.Float64) }),
		"Int":         reflect.ValueOf(func() int { return or1(r2, (*randv2.Rand).Int, randv2.Int) }),
		"Int32":       reflect.ValueOf(func() int32 { return or1(r2, (*randv2.Rand).Int32, randv2.Int32) }),
		"Int64":       reflect.ValueOf(func() int64 { return or1(r2, (*randv2.Rand).Int64, randv2.Int64) }),
		"NormFloat64": reflect.ValueOf(func() float64 { return or1(r2, (*randv2.Rand).NormFloat64, randv2.NormFloat64) }),
		"Uint":        reflect.ValueOf(func() uint { return or1(r2, (*randv2.Rand).Uint, randv2.Uint) }),
		"Uint32":      reflect.ValueOf(func() uint32 { return or1(r2, (*randv2.Rand).Uint32, randv2.Uint32) }),
		"Uint64":      reflect.ValueOf(func() uint64 { return or1(r2, (*randv2.Rand).Uint64, randv2.Uint64) }),
		"IntN":        reflect.ValueOf(func(n int) int { return orN(r2, (*randv2.Rand).IntN, randv2.IntN, n) }),
		"Int32N":      reflect.ValueOf(func(n int32) int32 { return orN(r2, (*randv2.Rand).Int32N, randv2.Int32N, n) }),
		"Int64N":      reflect.ValueOf(func(n int64) int64 { return orN(r2, (*randv2.Rand).Int64N, randv2.Int64N, n) }),
		"UintN":       reflect.ValueOf(func(n uint) uint { return orN(r2, (*randv2.Rand).UintN, randv2.UintN, n) }),
		"Uint32N":     reflect.ValueOf(func(n uint32) uint32 { return orN(r2, (*randv2.Rand).Uint32N, randv2.Uint32N, n) }),
		"Uint64N":     reflect.ValueOf(func(n uint64) uint64 { return orN(r2, (*randv2.Rand).Uint64N, randv2.Uint64N, n) }),
		"Perm":        reflect.ValueOf(func(n int) []int { return orN(r2, (*randv2.Rand).Perm, randv2.Perm, n) }),
		"Shuffle": reflect.ValueOf(func(n int, swap func(i, j int)) {
			if r := r2(); r != nil {
				r.Shuffle(n, swap)
				return
			}
			randv2.Shuffle(n, swap)
		}),
	}
	return v1, v2
}

// timeSymbols replace time.Sleep in cells by one an interrupt ends, and
// time.Now, Since and Until by ones that remember being called back by a
// library: a policy reading the wall clock decides by when and how fast
// its runs ran, so a seed no longer fixes its result. The cell then ends
// with a note (noteWallClock). The clock itself is left alone: a policy
// may time itself, and cells time what they like.
func (s *Session) timeSymbols() map[string]reflect.Value {
	mark := func() {
		if s.calling.Load() {
			s.wallClock.Store(true)
		}
	}
	return map[string]reflect.Value{
		"Sleep": reflect.ValueOf(s.sleep),
		"Now":   reflect.ValueOf(func() time.Time { mark(); return time.Now() }),
		"Since": reflect.ValueOf(func(t time.Time) time.Duration { mark(); return time.Since(t) }),
		"Until": reflect.ValueOf(func(t time.Time) time.Duration { mark(); return time.Until(t) }),
	}
}

// noteWallClock ends a cell whose runs' policies read the wall clock with
// a note saying what that costs and what to use instead.
func (s *Session) noteWallClock() {
	if s.wallClock.Swap(false) {
		fmt.Fprintln(s.out.errW, "note: a scripted policy read the wall clock (time.Now, time.Since or time.Until) during its runs: its decisions then depend on when and how fast the runs ran, so the same seed can give another result; the run's own clock is v.Now (simulated milliseconds) in a lab.Picker or a lab.Stateful hook")
	}
}

// or1 calls method on the callback's generator, or global without one.
func or1[R any, T any](gen func() *R, method func(*R) T, global func() T) T {
	if r := gen(); r != nil {
		return method(r)
	}
	return global()
}

// orN is or1 for functions of one argument.
func orN[R any, A any, T any](gen func() *R, method func(*R, A) T, global func(A) T, a A) T {
	if r := gen(); r != nil {
		return method(r, a)
	}
	return global(a)
}
