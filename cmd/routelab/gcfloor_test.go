package main

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestFloorPercent(t *testing.T) {
	for _, c := range []struct {
		live, floor uint64
		base, want  int
	}{
		{10 << 20, 64 << 20, 100, 640},
		{64 << 20, 64 << 20, 100, 100},
		{500 << 20, 64 << 20, 100, 100},
		{0, 64 << 20, 100, 6400},
		{10 << 20, 64 << 20, 1000, 1000},
		{10 << 20, 64 << 20, -1, -1},
	} {
		if got := floorPercent(c.live, c.floor, c.base); got != c.want {
			t.Errorf("floorPercent(%d, %d, %d) = %d, want %d", c.live, c.floor, c.base, got, c.want)
		}
	}
}

// heapFloor sets the percent after each collection and its stop restores it.
func TestHeapFloor(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	stop := heapFloor(1 << 40)
	for i := 0; i < 3; i++ {
		runtime.GC()
	}
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	if p < 10000 {
		t.Errorf("percent with a 1 TB floor = %d, want a large one", p)
	}
	stop()
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("percent after stop = %d, want 100", p)
	}
}
