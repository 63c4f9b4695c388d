package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// A script's live heap is mostly the interpreter's own (its compiled code
// and the standard library's symbol tables, about 10 MB), while an
// interpreted call allocates its frame, about half a kilobyte: with Go's
// default target (twice the live heap) the collector ran every 10 MB, 70
// times a second in a call-heavy script, and took a third of its CPU
// (collection, assists and sweeping). heapFloor keeps the collector's goal
// at least floor bytes above the live heap, measured after each collection:
// collections are rarer while the heap is small, and Go's default takes
// over once the live heap passes floor. GOGC or GOMEMLIMIT in the
// environment keep the Go defaults' way.
const scriptHeapFloor = 64 << 20

// heapFloor starts keeping the heap goal at least floor bytes above the
// live heap, and returns what restores Go's percent.
func heapFloor(floor uint64) (stop func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	var stopped atomic.Bool
	percent := debug.SetGCPercent(floorPercent(liveHeap(), floor, 100))
	var rearm func()
	rearm = func() {
		// The finalizer of a new object runs after the next collection.
		runtime.SetFinalizer(new([16]byte), func(*[16]byte) {
			if stopped.Load() {
				return
			}
			debug.SetGCPercent(floorPercent(liveHeap(), floor, percent))
			rearm()
		})
	}
	rearm()
	return func() {
		stopped.Store(true)
		debug.SetGCPercent(percent)
	}
}

// floorPercent is the GC percent that puts the goal floor bytes above a
// live heap of live bytes, never below base.
func floorPercent(live, floor uint64, base int) int {
	if base < 0 {
		return base // collection off: leave it so
	}
	if live < 1<<20 {
		live = 1 << 20
	}
	p := floor * 100 / live
	if p < uint64(base) {
		return base
	}
	return int(p)
}

func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
