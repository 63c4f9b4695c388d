package engine

import (
	"math"

	"github.com/routelab/routelab/internal/xmath"
)

// server is what a replica does with the requests routed to it: the seam
// between the router's record of a replica (replicaState, which keeps the
// router's statistics) and its service discipline. The specification's
// FIFO single server (fifoServer) and the continuous-batching server of the
// serving model (batchServer) implement it; the simulator talks to both
// through these methods only.
//
// Times are boundaries (steps of StepMs). k is the replica's current speed
// relative to the reference request, base·factor/11: a server reads it
// whenever service starts, so a slowdown applies to service started after
// it.
type server interface {
	// admit takes a request routed to the replica at boundary now.
	admit(req request, now int64, k float64)
	// due is the next boundary at which step has work (math.MaxInt64 when
	// nothing is scheduled).
	due() int64
	// step does what is due at boundary now and returns the requests that
	// completed, in completion order; the slice is reused by the next call.
	step(now int64, k float64) []completion
	// popWaiting removes the first waiting request (to re-route it when the
	// replica fails).
	popWaiting() (request, bool)
	// load is the replica's state at boundary now, as its metrics would
	// report it. It only reads.
	load(now int64) load
	// counts are load's waiting and running requests, which do not depend
	// on the time: the router's own record, kept after every change.
	counts() (waiting, running int)
	// each visits every request at the replica, in service first. It only
	// reads.
	each(visit func(request))
	// inspect lists the requests at the replica for live views, with their
	// predicted completions at speed k. It only reads.
	inspect(now int64, k float64) []RequestSnapshot
}

// load is what a replica's metrics say about it: the signals of a router's
// view (see Replica).
type load struct {
	waiting, running int
	kvUtil           float64 // fraction of KV blocks held (0 without a KV limit)
	tokens           int     // prompt and generated tokens of the requests at the replica
}

// completion is one finished request as its server reports it.
type completion struct {
	req     request
	service float64 // ms from its first admission to its last token (the FIFO server: its service time)
	serving servedStats
}

// servedStats are the token-level figures of a request the batching server
// completed; zero from the FIFO server.
type servedStats struct {
	firstToken  int64   // boundary at which its first token was seen
	itlMean     float64 // mean gap between successive tokens, ms (NaN with one token)
	itlP99      float64 // nearest-rank 99th percentile of those gaps, ms (NaN with one token)
	cached      int     // prompt tokens served from the prefix cache at its admissions
	prefixed    int     // shared prefix tokens it asked the cache for at its admissions
	preemptions int
}

// serviceMs is the time work ms of reference-speed demand takes at speed k
// with the request's jitter: the specification's service time.
func serviceMs(work, k, jitter float64) float64 { return xmath.Mul(xmath.Mul(work, k), jitter) }

// serviceSteps is the number of boundaries a service of ms occupies: a
// service starts at a boundary and completes at the first boundary at least
// ms later, one step at the least. Both servers use it, so a batch of one
// completes exactly when the FIFO server would.
func serviceSteps(ms float64) int64 { return int64(max(1, min(math.Ceil(ms/StepMs), 1<<60))) }

// fifoServer is the specification's replica: a FIFO waiting queue and one
// in-flight slot.
type fifoServer struct {
	queue   fifo
	busy    bool
	cur     request
	service float64 // the in-flight request's service time, ms
	done    int64   // boundary at which it completes
	out     [1]completion
}

// newFIFOServer is a server whose waiting queue holds len(buf) requests.
func newFIFOServer(buf []request) *fifoServer { return &fifoServer{queue: fifo{buf: buf}} }

func (f *fifoServer) admit(req request, now int64, k float64) { f.put(&req, now, k) }

// put is admit for the simulator's direct call, by pointer: a request is
// 64 bytes, and the hot path of the specification's model copies it once.
func (f *fifoServer) put(req *request, now int64, k float64) {
	if f.busy {
		f.queue.push(*req)
		return
	}
	f.start(req, now, k)
}

// start puts req into service at boundary now.
func (f *fifoServer) start(req *request, now int64, k float64) {
	f.cur, f.service, f.busy = *req, serviceMs(req.demand, k, req.jitter), true
	f.done = now + serviceSteps(f.service)
}

func (f *fifoServer) due() int64 {
	if f.busy {
		return f.done
	}
	return math.MaxInt64
}

// step completes the request in flight and starts the next one at once.
func (f *fifoServer) step(now int64, k float64) []completion {
	if !f.busy || f.done != now {
		return nil
	}
	c := &f.out[0] // its serving figures stay zero: set field by field, not rebuilt
	c.req, c.service = f.cur, f.service
	f.busy = false
	if f.queue.len() > 0 {
		next := f.queue.pop()
		f.start(&next, now, k)
	}
	return f.out[:]
}

func (f *fifoServer) popWaiting() (request, bool) {
	if f.queue.len() == 0 {
		return request{}, false
	}
	return f.queue.pop(), true
}

func (f *fifoServer) load(int64) load {
	w, r := f.counts()
	return load{waiting: w, running: r}
}

func (f *fifoServer) counts() (waiting, running int) {
	if f.busy {
		running = 1
	}
	return f.queue.len(), running
}

func (f *fifoServer) each(visit func(request)) {
	if f.busy {
		visit(f.cur)
	}
	for j := 0; j < f.queue.len(); j++ {
		visit(f.queue.at(j))
	}
}

// inspect predicts the completion of the waiting requests at speed k (each
// starts at the boundary its predecessor completes on, as start does).
func (f *fifoServer) inspect(_ int64, k float64) []RequestSnapshot {
	if !f.busy {
		return nil
	}
	out := make([]RequestSnapshot, 0, 1+f.queue.len())
	out = append(out, RequestSnapshot{Seq: f.cur.seq, Arrival: f.cur.arrival, ServiceMs: f.service, Done: float64(f.done) * StepMs})
	done := f.done
	for j := 0; j < f.queue.len(); j++ {
		q := f.queue.at(j)
		service := serviceMs(q.demand, k, q.jitter)
		done += serviceSteps(service)
		out = append(out, RequestSnapshot{Seq: q.seq, Arrival: q.arrival, ServiceMs: service, Done: float64(done) * StepMs})
	}
	return out
}
