package engine

import (
	"fmt"
	"math"
	"slices"

	"github.com/routelab/routelab/internal/xmath"
)

// ArrivalProcess names how request arrival times are generated.
type ArrivalProcess string

// The arrival processes.
const (
	// Poisson arrivals: exponential inter-arrival times at the current rate.
	Poisson ArrivalProcess = "poisson"
	// Periodic arrivals: a constant gap of 1/rate (the D in D/G/1).
	Periodic ArrivalProcess = "periodic"
	// Replay takes arrival times and token counts from Scenario.Trace.
	Replay ArrivalProcess = "trace"
)

// DemandKind names the distribution of a request's service demand.
type DemandKind string

// The demand distributions. Demand is in milliseconds at reference speed: a
// replica whose speed is 11 ms serves a request in exactly its demand (before
// jitter).
const (
	// TokenDemand: base + prefill·prompt_tokens + decode·output_tokens with
	// token counts from bounded log-normals (the specification's model).
	TokenDemand DemandKind = "tokens"
	// ExponentialDemand with the given mean (for M/M/1 checks).
	ExponentialDemand DemandKind = "exponential"
	// FixedDemand: every request has the mean (for M/D/1 checks).
	FixedDemand DemandKind = "deterministic"
	// LogNormalDemand with the given mean and coefficient of variation.
	LogNormalDemand DemandKind = "lognormal"
)

// ReferenceDemand is the demand of the reference request the replica speeds
// are quoted for (ms).
const ReferenceDemand = 11.0

// TokenCount is a bounded log-normal token count: round(Median·e^(Sigma·Z))
// clamped to [Min, Max]. Clamping (not rejection) keeps the number of random
// draws per request fixed.
type TokenCount struct {
	Median float64 `json:"median"`
	Sigma  float64 `json:"sigma"`
	Min    int     `json:"min"`
	Max    int     `json:"max"`
}

// TokenModel turns token counts into service demand. The coefficients are
// synthetic, chosen so the default mean demand is 11 ms with a coefficient of
// variation of about 0.45; they describe no real accelerator.
type TokenModel struct {
	BaseMs    float64    `json:"base_ms"`
	PrefillMs float64    `json:"prefill_ms_per_token"`
	DecodeMs  float64    `json:"decode_ms_per_token"`
	Prompt    TokenCount `json:"prompt"`
	Output    TokenCount `json:"output"`
}

// DefaultTokenModel is the calibrated synthetic model (see docs/model.md).
func DefaultTokenModel() TokenModel {
	return TokenModel{
		BaseMs:    2.34,
		PrefillMs: 0.004,
		DecodeMs:  0.045,
		Prompt:    TokenCount{Median: 400, Sigma: 0.8, Min: 8, Max: 4096},
		Output:    TokenCount{Median: 120, Sigma: 0.6, Min: 4, Max: 1024},
	}
}

// Demand returns the service demand (ms) of a request with these token counts.
func (m TokenModel) Demand(prompt, output int) float64 {
	return m.BaseMs + xmath.Mul(m.PrefillMs, float64(prompt)) + xmath.Mul(m.DecodeMs, float64(output))
}

// DemandModel is the distribution of service demand.
type DemandModel struct {
	Kind DemandKind `json:"kind"`
	// Mean demand in ms (exponential, deterministic, lognormal).
	Mean float64 `json:"mean_ms,omitempty"`
	// CV is the log-normal's coefficient of variation.
	CV float64 `json:"cv,omitempty"`
	// Tokens is used by TokenDemand and by trace replay.
	Tokens TokenModel `json:"tokens"`
}

// DefaultDemand is the specification's token-based demand.
func DefaultDemand() DemandModel {
	return DemandModel{Kind: TokenDemand, Mean: ReferenceDemand, Tokens: DefaultTokenModel()}
}

func (d DemandModel) validate() error {
	switch d.Kind {
	case TokenDemand:
		return d.Tokens.validate()
	case ExponentialDemand, FixedDemand:
		return checkUpTo("demand.mean_ms", d.Mean, MaxMs)
	case LogNormalDemand:
		if err := checkUpTo("demand.mean_ms", d.Mean, MaxMs); err != nil {
			return err
		}
		return checkUpTo("demand.cv", d.CV, 100)
	}
	return fieldErr("demand.kind", string(d.Kind), "one of tokens, exponential, deterministic, lognormal")
}

func (m TokenModel) validate() error {
	for _, c := range []struct {
		field string
		v     float64
	}{{"tokens.base_ms", m.BaseMs}, {"tokens.prefill_ms_per_token", m.PrefillMs}, {"tokens.decode_ms_per_token", m.DecodeMs}} {
		if !finite(c.v) || c.v < 0 || c.v > MaxMs {
			return fieldErr(c.field, c.v, fmt.Sprintf("a number in [0, %g]", MaxMs))
		}
	}
	if m.BaseMs+m.PrefillMs+m.DecodeMs <= 0 {
		return fieldErr("tokens", "all coefficients zero", "at least one positive coefficient")
	}
	if err := m.Prompt.validate("tokens.prompt"); err != nil {
		return err
	}
	return m.Output.validate("tokens.output")
}

func (c TokenCount) validate(field string) error {
	if err := checkUpTo(field+".median", c.Median, MaxTokens); err != nil {
		return err
	}
	if !finite(c.Sigma) || c.Sigma < 0 || c.Sigma > 10 {
		return fieldErr(field+".sigma", c.Sigma, "a number in [0, 10]")
	}
	if c.Min < 0 || c.Min > MaxTokens {
		return fieldErr(field+".min", c.Min, fmt.Sprintf("an integer from 0 to %d", MaxTokens))
	}
	if c.Max < c.Min || c.Max < 1 || c.Max > MaxTokens {
		return fieldErr(field+".max", c.Max, fmt.Sprintf("an integer from max(1, min = %d) to %d", c.Min, MaxTokens))
	}
	return nil
}

// draw maps a uniform u in (0, 1) to a token count.
func (c TokenCount) draw(u float64) int {
	x := math.Round(xmath.Mul(c.Median, xmath.Exp(xmath.Mul(c.Sigma, xmath.NormQuantile(u)))))
	switch {
	case x < float64(c.Min):
		return c.Min
	case x > float64(c.Max):
		return c.Max
	}
	return int(x)
}

// request is one inference request as the simulator carries it. Everything
// random about it is drawn when it is generated, before any routing.
type request struct {
	seq     int64
	arrival float64 // ms
	demand  float64 // ms at reference speed
	jitter  float64 // service-time multiplier, applied at service start
	// Token counts (zero for demand models without tokens) and the serving
	// attributes (zero without a serving section).
	prompt, output int32
	group          int32 // shared prefix group, 0 for none
	session        int32 // multi-turn session, 0 for none
	system         int32 // prompt tokens shared with the group (its system prompt)
	carried        int32 // prompt tokens carried from the session's earlier turns, after the system prompt
	priority       int8  // 1 critical, 0 standard, -1 sheddable
}

// rateChange is a scheduled change of the arrival rate (req/s).
type rateChange struct {
	at   float64
	rate float64
}

// workload generates a seed's request stream. Each request takes exactly four
// draws from its own stream in a fixed order (gap, two demand draws, jitter),
// whatever the arrival process or demand model, so the same seed yields the
// same numbers for every policy: common random numbers.
type workload struct {
	rng      Rand
	process  ArrivalProcess
	rate     float64 // current, req/s
	demand   DemandModel
	lnMu     float64 // log-normal parameters, precomputed
	lnSigma  float64
	jitter   float64
	trace    []TraceRecord
	tables   *tokenTables
	schedule []rateChange // every rate change, in time order
	due      int          // schedule[due:] are still to come
	pend     pending      // how next.arrival was placed
	next     request
	nextStep int64 // the boundary at which next arrives: ceilStep(next.arrival)
	has      bool
	last     float64 // arrival time of the previous request
	seq      int64
	hash     uint64
	srv      *servingGen // the serving attributes' stream; nil without a serving section
}

const fnvOffset, fnvPrime = 14695981039346656037, 1099511628211

func newWorkload(s *Scenario, seed uint64, tables *tokenTables) *workload {
	w := &workload{
		process: s.Arrivals,
		rate:    s.Rate,
		demand:  s.Demand,
		jitter:  s.Jitter,
		trace:   s.Trace,
		hash:    fnvOffset,
	}
	if s.Demand.Kind == TokenDemand {
		if tables == nil || tables.model != s.Demand.Tokens {
			tables = prepareTokens(s.Demand.Tokens)
		}
		w.tables = tables
	}
	w.rng.Seed(seed, streamWorkload)
	if s.Serving != nil {
		w.srv = newServingGen(s, seed)
	}
	if s.Demand.Kind == LogNormalDemand {
		w.lnSigma = math.Sqrt(xmath.Log(1 + xmath.Mul(s.Demand.CV, s.Demand.CV)))
		w.lnMu = xmath.Log(s.Demand.Mean) - xmath.Mul(0.5, xmath.Mul(w.lnSigma, w.lnSigma))
	}
	w.schedule = rateSchedule(s)
	w.advance()
	return w
}

// rateSchedule lists the scenario's rate changes in time order.
func rateSchedule(s *Scenario) []rateChange {
	var out []rateChange
	for _, e := range s.sortedEvents() {
		switch e.Kind {
		case EventSetRate:
			out = append(out, rateChange{e.At, e.Value})
		case EventScaleRate:
			out = append(out, rateChange{e.At, xmath.Mul(s.Rate, e.Value)})
		}
	}
	return out
}

// pending is how the next arrival was placed: after prev by gap at rate,
// with the rate changes from schedule[due] on still to come. A rate change
// inserted later (a live control) places it again, as if it had been
// scheduled. It holds no pointer, so the hot path stores it without a write
// barrier.
type pending struct {
	prev, gap, rate float64
	due             int
}

// advance generates the next request into w.next.
func (w *workload) advance() {
	u1, u2, u3, u4 := w.rng.Open(), w.rng.Open(), w.rng.Open(), w.rng.Float64()
	w.seq++
	r := &w.next // built in place: a request is 64 bytes
	*r = request{seq: w.seq, jitter: 1 + xmath.Mul(w.jitter, xmath.Mul(2, u4)-1)}
	if w.process == Replay {
		i := int(w.seq - 1)
		if i >= len(w.trace) {
			w.has = false
			return
		}
		rec := w.trace[i]
		r.arrival = rec.At
		r.prompt, r.output = int32(rec.Prompt), int32(rec.Output)
		if w.srv != nil {
			w.srv.fromTrace(r, rec)
		}
		r.demand = w.demand.Tokens.Demand(rec.Prompt, rec.Output)
	} else {
		w.pend = pending{prev: w.last, gap: w.gap(u1), rate: w.rate, due: w.due}
		r.arrival = w.arrivalAfter(w.pend.prev, w.pend.gap)
		if w.srv != nil {
			w.srv.draw(r, u2, u3, w.tables)
			r.demand = w.demand.Tokens.Demand(int(r.prompt), int(r.output))
		} else {
			r.demand = w.draw(r, u2, u3)
		}
	}
	w.has = true
	w.nextStep = ceilStep(r.arrival)
}

// gap is the inter-arrival time in ms at the current rate.
func (w *workload) gap(u float64) float64 {
	if w.process == Periodic {
		return 1000 / w.rate
	}
	return xmath.Mul(-xmath.Log(u), 1000/w.rate)
}

// arrivalAfter places an arrival gap ms after prev, rescaling the part of the
// gap that lies beyond each scheduled rate change by λ_old/λ_new. That keeps
// the remaining exponential hazard without another random draw.
func (w *workload) arrivalAfter(prev, gap float64) float64 {
	t := prev + gap
	for w.due < len(w.schedule) && w.schedule[w.due].at < t {
		c := w.schedule[w.due]
		w.due++
		if c.at >= prev {
			t = c.at + xmath.Mul(t-c.at, w.rate/c.rate)
		}
		w.rate = c.rate
	}
	return t
}

// insertRate adds a rate change at time at (after the previous arrival) to
// the schedule, after the changes already due then, and places the pending
// arrival again: the result is what a scheduled change would have given.
// A replayed trace has no rate to change.
func (w *workload) insertRate(at, rate float64) {
	if w.process == Replay || !w.has {
		return
	}
	i := w.pend.due
	for i < len(w.schedule) && w.schedule[i].at <= at {
		i++
	}
	w.schedule = slices.Insert(slices.Clone(w.schedule), i, rateChange{at, rate})
	w.due, w.rate = w.pend.due, w.pend.rate
	w.next.arrival = w.arrivalAfter(w.pend.prev, w.pend.gap)
	w.nextStep = ceilStep(w.next.arrival)
}

// draw maps two uniforms to a demand in ms (and r's token counts, for token
// demand).
func (w *workload) draw(r *request, u2, u3 float64) float64 {
	d := &w.demand
	switch d.Kind {
	case ExponentialDemand:
		return xmath.Mul(-xmath.Log(u2), d.Mean)
	case FixedDemand:
		return d.Mean
	case LogNormalDemand:
		return xmath.Exp(w.lnMu + xmath.Mul(w.lnSigma, xmath.NormQuantile(u2)))
	}
	p, o := w.tables.prompt.draw(u2), w.tables.output.draw(u3)
	r.prompt, r.output = int32(p), int32(o)
	return d.Tokens.Demand(p, o)
}

// pop consumes the pending request and generates the one after it.
func (w *workload) pop() request {
	r := *w.take()
	w.advance()
	return r
}

// take consumes the pending request where it lies: the caller routes it and
// then calls advance, so the hot path never copies a request out of the
// workload. The workload's stream is its own, so generating the next request
// after routing this one draws exactly the same numbers.
func (w *workload) take() *request {
	r := &w.next
	w.last = r.arrival
	w.hash = (w.hash ^ math.Float64bits(r.arrival)) * fnvPrime
	w.hash = (w.hash ^ math.Float64bits(r.demand)) * fnvPrime
	w.hash = (w.hash ^ math.Float64bits(r.jitter)) * fnvPrime
	if w.srv != nil {
		w.hash = w.srv.fold(w.hash, r)
	}
	return r
}
