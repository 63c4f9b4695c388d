package main

import (
	"context"
	"errors"
	"io"
	"log"
	"slices"
	"testing"
	"time"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/dsl"
	"github.com/routelab/routelab/dsl/symbols"
	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
	"github.com/routelab/routelab/kernel/worker"
	"github.com/routelab/routelab/lab"
)

// discard is a sink that drops a cell's output.
type discard struct{}

func (discard) Stream(string, string)                {}
func (discard) Display(display.Bundle, string, bool) {}
func (discard) Clear(bool)                           {}

// The experiment of both sides: the straggler scenario, its 10 default seeds,
// three built-in policies.
const compareArgs = `lab.Straggler(), lab.RoundRobin(), lab.LeastQueue(), lab.Adaptive()`

// BenchmarkCompareCellOverhead is what running a comparison as a kernel cell
// costs over calling experiment.Compare with the same experiment (target: at
// most 10 %). Each iteration runs both, one after the other, and the
// medians are compared, so load from other processes on the machine hits
// both sides alike. kernel/testdata/bench_kernel.py measures the kernel
// itself end to end through jupyter_client; dsl/symbols has the session's
// start-up and trivial-cell benchmarks.
func BenchmarkCompareCellOverhead(b *testing.B) {
	cells := []struct{ name, code string }{
		{"assign", "res = lab.Compare(" + compareArgs + ")"},
		// The result is shown: the cell also renders the summary table.
		{"shown", "lab.Compare(" + compareArgs + ")"},
	}
	scn, proto, err := lab.Straggler().Engine()
	if err != nil {
		b.Fatal(err)
	}
	exp := experiment.Experiment{
		Scenario: scn, Protocol: proto, Seeds: experiment.DefaultSeeds(10),
		Policies: []engine.PolicySpec{lab.RoundRobin(), lab.LeastQueue(), lab.Adaptive()},
	}
	for _, c := range cells {
		b.Run(c.name, func(b *testing.B) {
			s, err := symbols.NewSession(dsl.Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			ctx := context.Background()
			if _, err := s.Execute(ctx, "var res *lab.Comparison", discard{}); err != nil {
				b.Fatal(err)
			}
			runCell := func() {
				if _, err := s.Execute(ctx, c.code, discard{}); err != nil {
					b.Fatal(err)
				}
			}
			runEngine := func() {
				if _, err := experiment.Compare(ctx, exp); err != nil {
					b.Fatal(err)
				}
			}
			var cell, direct []time.Duration
			for i := 0; b.Loop(); i++ {
				// Alternate the order: the second call pays for garbage
				// the first left.
				if i%2 == 0 {
					cell = append(cell, timed(runCell))
					direct = append(direct, timed(runEngine))
				} else {
					direct = append(direct, timed(runEngine))
					cell = append(cell, timed(runCell))
				}
			}
			mc, me := median(cell), median(direct)
			b.ReportMetric(mc.Seconds()*1e3, "cell-ms")
			b.ReportMetric(me.Seconds()*1e3, "engine-ms")
			b.ReportMetric(100*(mc.Seconds()/me.Seconds()-1), "overhead-%")
		})
	}
}

func timed(f func()) time.Duration {
	t0 := time.Now()
	f()
	return time.Since(t0)
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// BenchmarkInterruptThroughWorker is the time from Supervisor.Interrupt to
// the end of a cell spinning in `for {}`, through the real worker process
// (target: a median of at most 5 ms). Each iteration starts the loop, waits
// until the worker reports that it runs, interrupts it and waits for the
// cell's result; the benchmark reports the median and the largest of those
// times.
func BenchmarkInterruptThroughWorker(b *testing.B) {
	sup := worker.New(worker.Config{Path: routelab.Path(b), Args: []string{"worker"}, Log: log.New(io.Discard, "", 0)})
	defer sup.Close()
	ctx := context.Background()
	if _, err := sup.Execute(ctx, "x := 1", discard{}); err != nil {
		b.Fatal(err)
	}
	var times []time.Duration
	for b.Loop() {
		done := make(chan error, 1)
		go func() {
			_, err := sup.Execute(ctx, "for {}", discard{})
			done <- err
		}()
		// The loop has started once the worker has compiled the cell; the
		// interpreter's own start is well under this.
		time.Sleep(20 * time.Millisecond)
		t0 := time.Now()
		sup.Interrupt()
		err := <-done
		times = append(times, time.Since(t0))
		var de *display.Error
		if !errors.As(err, &de) || de.Name != dsl.Interrupted {
			b.Fatalf("for {} after an interrupt: %v, want an Interrupted error", err)
		}
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms")
	b.ReportMetric(float64(times[len(times)-1].Microseconds())/1000, "max-ms")
	b.ReportMetric(0, "ns/op")
}
