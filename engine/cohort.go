package engine

import (
	"fmt"
	"slices"
)

// Protocol is how a run is measured: a warm-up that is discarded, then a
// measurement window. Requests arriving in (Warmup, Warmup+Measure] form the
// cohort; there is no draining after the cutoff.
type Protocol struct {
	Warmup  float64 `json:"warmup_ms"`
	Measure float64 `json:"measure_ms"`
	SLO     float64 `json:"slo_ms"`
}

// DefaultProtocol is the specification's: 3 s warm-up, 12 s measurement,
// 50 ms SLO.
func DefaultProtocol() Protocol {
	return Protocol{Warmup: DefaultWarmup, Measure: DefaultMeasure, SLO: DefaultSLO}
}

// Horizon is the cutoff time (ms).
func (p Protocol) Horizon() float64 { return p.Warmup + p.Measure }

// Validate checks the protocol; times must lie on the 0.5 ms grid.
func (p Protocol) Validate() error {
	if !finite(p.Warmup) || p.Warmup < 0 || !onGrid(p.Warmup) {
		return fieldErr("warmup_ms", p.Warmup, "a finite multiple of 0.5 ms >= 0")
	}
	if !finite(p.Measure) || p.Measure <= 0 || !onGrid(p.Measure) {
		return fieldErr("measure_ms", p.Measure, "a finite multiple of 0.5 ms > 0 (the warm-up must end before the horizon)")
	}
	if p.Warmup+p.Measure > MaxHorizon {
		return fieldErr("warmup_ms + measure_ms", p.Warmup+p.Measure, fmt.Sprintf("at most %g ms", MaxHorizon))
	}
	return checkPositive("slo_ms", p.SLO)
}

func onGrid(ms float64) bool {
	x := ms / StepMs
	return x == float64(int64(x))
}

// cohort accumulates the measurement of one run.
type cohort struct {
	from, to, slo float64
	arrivals      int
	completed     int
	shed          int
	onTime        int
	throughput    int // completions in (from, to], warm-up carryover included
	lat           []float64
	perReplica    []replicaTally
	srv           *servingTally // the serving model's figures; nil in the specification's
}

type replicaTally struct {
	assigned  int
	completed int
	latSum    float64
}

// newCohort measures p's cohort, its latencies appended to lat (empty).
func newCohort(p Protocol, replicas int, lat []float64) *cohort {
	return &cohort{
		from: p.Warmup, to: p.Horizon(), slo: p.SLO,
		lat:        lat,
		perReplica: make([]replicaTally, replicas),
	}
}

func (c *cohort) member(arrival float64) bool { return arrival > c.from && arrival <= c.to }

func (c *cohort) arrive(r *request) {
	if c.member(r.arrival) {
		c.arrivals++
	}
}

func (c *cohort) assign(r *request, replica int) {
	if c.member(r.arrival) {
		c.perReplica[replica-1].assigned++
	}
}

func (c *cohort) drop(r *request) {
	if c.member(r.arrival) {
		c.shed++
	}
}

func (c *cohort) complete(r *request, replica int, at float64) {
	if at > c.from && at <= c.to {
		c.throughput++
	}
	if !c.member(r.arrival) {
		return
	}
	lat := at - r.arrival
	c.completed++
	c.lat = append(c.lat, lat)
	if lat <= c.slo {
		c.onTime++
	}
	t := &c.perReplica[replica-1]
	t.completed++
	t.latSum += lat
}

// sortedLatencies sorts the recorded latencies in place and returns them.
func (c *cohort) sortedLatencies() []float64 {
	slices.Sort(c.lat)
	return c.lat
}
