package dsl_test

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/routelab/routelab/dsl"
	"github.com/routelab/routelab/dsl/internal/testlibsym"
)

// Targets: a trivial cell within 1 ms, a fresh session within 50 ms.

func BenchmarkTrivialCell(b *testing.B) {
	s := newSession(b)
	rec := &recorder{}
	ctx := context.Background()
	for b.Loop() {
		if _, err := s.Execute(ctx, "1+1", rec); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCellWithLoop(b *testing.B) {
	s := newSession(b)
	rec := &recorder{}
	ctx := context.Background()
	for b.Loop() {
		if _, err := s.Execute(ctx, "t := 0\nfor i := range 100 { t += i }\nt", rec); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNewSession(b *testing.B) {
	for b.Loop() {
		s, err := dsl.New(dsl.Options{Libraries: []dsl.Library{testlibsym.Library(true)}})
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}

// BenchmarkCellMemory reports what a session keeps per trivial cell: heap
// after a collection, and the process's resident memory (target: at most
// 5 MB per 1,000 cells). Each iteration runs 1,000 cells.
func BenchmarkCellMemory(b *testing.B) {
	s := newSession(b)
	rec := &recorder{}
	ctx := context.Background()
	run := func(n int) {
		for range n {
			if _, err := s.Execute(ctx, "1+1", rec); err != nil {
				b.Fatal(err)
			}
		}
	}
	run(200) // warm up
	heap0, rss0 := memNow()
	cells := 0
	for b.Loop() {
		run(1000)
		cells += 1000
	}
	heap1, rss1 := memNow()
	b.ReportMetric(float64(heap1-heap0)/float64(cells), "heap-B/cell")
	b.ReportMetric(float64(rss1-rss0)/float64(cells)*1000/(1<<20), "RSS-MB/1000cells")
}

// memNow is the live heap after a collection and the resident set size.
func memNow() (heap, rss int64) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc), residentBytes()
}

// residentBytes reads VmRSS from /proc/self/status (0 where there is none).
func residentBytes() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// BenchmarkInterruptLoop is the time from Interrupt to the return of a
// cell spinning in for {} (in process; through the kernel's worker it
// adds the round trip, docs/performance.md).
func BenchmarkInterruptLoop(b *testing.B) {
	s := newSession(b)
	rec := &recorder{}
	ctx := context.Background()
	var total time.Duration
	for b.Loop() {
		done := make(chan error, 1)
		go func() {
			_, err := s.Execute(ctx, "for {}", rec)
			done <- err
		}()
		for {
			if _, line, _ := s.Position(); line > 0 {
				break
			}
			time.Sleep(100 * time.Microsecond)
		}
		time.Sleep(2 * time.Millisecond) // well inside the loop
		start := time.Now()
		s.Interrupt()
		if err := <-done; err == nil {
			b.Fatal("the interrupted loop returned no error")
		}
		total += time.Since(start)
	}
	b.ReportMetric(float64(total.Microseconds())/float64(b.N), "µs/interrupt")
}
