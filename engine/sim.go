package engine

import (
	"fmt"
	"math"
	"runtime/debug"
	"slices"

	"github.com/routelab/routelab/engine/internal/prefix"
	"github.com/routelab/routelab/internal/xmath"
)

// Simulator is the fixed-timestep model of one router and its replicas.
//
// Time advances on a 0.5 ms grid. At each boundary, in this order: scenario
// events due by then apply; in-flight requests whose service has been earned
// complete (in replica id order), each replica immediately starting its next
// queued request; arrivals due by then are routed in arrival order, starting
// at once on an idle replica. A request therefore starts at a boundary, earns
// no service retroactively, and completes at the first boundary at least its
// service time later. Boundaries where nothing is due are skipped without any
// work, which gives exactly the results of visiting every one of them.
type Simulator struct {
	scn          Scenario
	policyName   string
	policy       Policy
	hooks        policyHooks
	wl           *workload
	replicas     []replicaState
	events       []Event // replica events, time order
	nextEvent    int
	applied      []Event // replica events applied so far
	liveEvents   []Event // events given to Apply, with the times they took effect
	penv         PolicyEnv
	oracle       workSum // LeastWorkLeft's tally
	seed         uint64
	proto        *Protocol      // the measurement protocol, when there is one
	switches     []PolicySwitch // policies given to Use
	step         int64          // the last boundary processed
	pending      remainder      // time given to Advance beyond the last boundary
	view         View
	eligible     []Replica
	live         liveWindows
	scratch      []float64
	cohort       *cohort
	sampler      *sampler
	serving      *servingRun // the serving model's signals and marks; nil in the specification's
	onDecision   func(Decision)
	totals       Totals
	completedObs int  // T: completions observed by the router
	unwatched    bool // no live windows (see SimOptions)
	inPolicy     bool
	err          error
	everyStep    bool // visit every boundary (reference mode for tests)
}

// policyHooks are the optional interfaces of the routing policy, detected
// once (when the policy is set).
type policyHooks struct {
	observer CompletionObserver
	admitter Admitter
	signals  servingSignals // the costly serving signals its views carry
}

func hooksOf(p Policy) policyHooks {
	h := policyHooks{signals: allSignals}
	h.observer, _ = p.(CompletionObserver)
	h.admitter, _ = p.(Admitter)
	if r, ok := p.(signalReader); ok {
		h.signals = r.servingSignals()
	}
	return h
}

// replicaState is the router's record of one replica — health, speed and the
// statistics of its completions — and the replica's server, which holds its
// requests (see server).
type replicaState struct {
	id       int
	base     float64 // mean ms per reference request
	factor   float64 // slowdown multiplier
	healthy  bool
	srv      server
	fifo     *fifoServer // srv when it is the specification's server: called directly, so the hot path inlines
	due      int64       // srv.due(), kept current after every call that changes it
	svc, rew ewma        // router statistics shown in the View
	n        int
	assigned int64
	finished int64
	pub      Replica // the router's view of this replica, kept current by sync
}

// speed is the replica's current speed relative to the reference request.
func (r *replicaState) speed() float64 { return r.base * r.factor / ReferenceDemand }

// sync refreshes the router's view after a change of state.
func (r *replicaState) sync() {
	var waiting, running int
	if r.fifo != nil {
		waiting, running = r.fifo.counts()
	} else {
		waiting, running = r.srv.counts()
	}
	p := &r.pub // field by field: a composite literal would be built and then copied
	p.ID, p.Waiting, p.InFlight, p.Outstanding = r.id, waiting, running, waiting+running
	p.Healthy, p.ServiceEWMA, p.RewardEWMA, p.Completed = r.healthy, r.svc.v, r.rew.v, r.n
}

// Totals counts everything since time zero.
type Totals struct {
	Arrivals  int64
	Routed    int64 // accepted assignments, re-routes included
	Shed      int64
	Completed int64
}

// Decision records one routing decision.
type Decision struct {
	Seq      int64   // request sequence number (1-based, in arrival order)
	Arrival  float64 // ms
	At       float64 // time of the decision, ms
	Replica  int     // chosen replica id; 0 when shed
	Rerouted bool    // re-routed from a failed replica's queue
	Eligible int     // number of eligible replicas
	Rejected bool    // refused by the policy's Admit (shed, Replica 0)
}

// SimOptions configure a simulator beyond its scenario and policy.
type SimOptions struct {
	Seed uint64
	// Measure, when set, records the cohort statistics of that protocol.
	Measure *Protocol
	// SampleEvery (ms, a multiple of 0.5) records a timeline; 0 records none.
	SampleEvery float64
	// OnDecision, when set, is called after every routing decision.
	OnDecision func(Decision)
}

// simInternals are what Run and Runner give a simulator of their own.
type simInternals struct {
	tables *tokenTables // shared prepared token samplers; nil: prepare
	// unwatched skips the live windows: Run sets it when nothing will read
	// them (no timeline, and its simulator is its own), which saves
	// allocation on every completion of experiments of many runs.
	unwatched bool
	buffers   *runBuffers // reused buffers (see runBuffers); nil: allocate
}

// NewSimulator validates the scenario and returns a simulator at time zero.
func NewSimulator(scn Scenario, policy PolicySpec, opt SimOptions) (*Simulator, error) {
	return newSimulator(scn, policy, opt, simInternals{})
}

func newSimulator(scn Scenario, policy PolicySpec, opt SimOptions, in simInternals) (*Simulator, error) {
	horizon := math.Inf(1)
	if opt.Measure != nil {
		if err := opt.Measure.Validate(); err != nil {
			return nil, err
		}
		horizon = opt.Measure.Horizon()
	}
	if err := scn.Validate(horizon); err != nil {
		return nil, err
	}
	if opt.Seed < 1 {
		return nil, fieldErr("seed", opt.Seed, "an integer >= 1")
	}
	if policy.New == nil {
		return nil, fieldErr("policy", policy.Name, "a policy with a constructor")
	}
	s := in.buffers.simulator()
	s.scn, s.policyName, s.onDecision, s.unwatched = scn, policy.Name, opt.OnDecision, in.unwatched
	s.seed, s.proto = opt.Seed, opt.Measure
	s.oracle.visit = s.oracle.add
	s.penv = PolicyEnv{Replicas: scn.Replicas(), Rand: NewRand(opt.Seed, streamPolicy), Now: s.Now, WorkLeft: s.workLeft}
	p, err := policy.New(s.penv)
	if err != nil {
		return nil, fmt.Errorf("policy %q: %w", policy.Name, err)
	}
	s.policy, s.hooks = p, hooksOf(p)
	s.wl = newWorkload(&scn, opt.Seed, in.tables)
	if scn.Serving != nil {
		s.serving = newServingRun(&s.scn, opt.Seed, opt.Measure)
	}
	s.initReplicas(in.buffers)
	for _, e := range scn.sortedEvents() {
		if e.Kind.affectsReplica() {
			s.events = append(s.events, e)
		}
	}
	if opt.Measure != nil {
		s.cohort = newCohort(*opt.Measure, scn.Replicas(), in.buffers.latencies(expectedCohort(&scn, *opt.Measure)))
		if scn.Serving != nil {
			s.cohort.srv = newServingTally(scn.Serving.SLO, expectedCohort(&scn, *opt.Measure))
		}
	}
	if opt.SampleEvery != 0 {
		if !finite(opt.SampleEvery) || opt.SampleEvery <= 0 || !onGrid(opt.SampleEvery) {
			return nil, fieldErr("sample_every_ms", opt.SampleEvery, "a multiple of 0.5 ms > 0")
		}
		s.sampler = newSampler(opt.SampleEvery)
	}
	s.guard(s.boundary)
	return s, s.err
}

func (s *Simulator) initReplicas(buffers *runBuffers) {
	n := s.scn.Replicas()
	s.replicas, s.view.Replicas, s.eligible = buffers.replicaArrays(n)
	for i := range s.replicas {
		s.replicas[i] = replicaState{
			id: i + 1, base: s.scn.Speeds[i], factor: 1, healthy: true, due: math.MaxInt64,
			svc: ewma{ReferenceDemand}, rew: ewma{1 - ReferenceDemand/DefaultCeiling},
		}
		if s.serving != nil {
			b := newBatchServer(&s.scn)
			s.replicas[i].srv = b
			s.serving.batch = append(s.serving.batch, b)
		} else {
			f := newFIFOServer(buffers.queue(s.scn.QueueCap))
			s.replicas[i].srv, s.replicas[i].fifo = f, f
		}
		s.replicas[i].sync()
	}
}

// expectedCohort sizes the latency buffer so a run does not grow it.
func expectedCohort(scn *Scenario, p Protocol) int {
	if scn.Arrivals == Replay {
		n := 0
		for _, r := range scn.Trace {
			if r.At > p.Warmup && r.At <= p.Horizon() {
				n++
			}
		}
		return n
	}
	peak := scn.Rate
	for _, c := range rateSchedule(scn) {
		peak = math.Max(peak, c.rate)
	}
	return int(math.Min(peak*p.Measure/1000*1.25+64, 1<<24))
}

// Now is the simulated time in ms (the last boundary reached).
func (s *Simulator) Now() float64 { return float64(s.step) * StepMs }

// Err is the error that stopped the simulator, if any (a policy error or panic).
func (s *Simulator) Err() error { return s.err }

// Totals returns the counts since time zero.
func (s *Simulator) Totals() Totals { return s.totals }

// Advance moves simulated time forward by dt ms. The chunks are summed
// exactly and the total is rounded to the nanosecond (see remainder), so any
// chunking of the same total reaches the same boundaries and gives identical
// results: 3,000 × Advance(1/3) is Advance(1000).
func (s *Simulator) Advance(dt float64) error {
	if !finite(dt) || dt < 0 || dt > 1e12 {
		return fieldErr("dt", dt, "a finite number of ms in [0, 1e12]")
	}
	if s.err != nil {
		return s.err
	}
	target := s.step + s.pending.add(dt)
	s.guard(func() { s.runTo(target) })
	return s.err
}

// guard runs f, turning a panic into the simulator's error. A panic inside a
// policy (for instance in a user's scripted scoring function) names the
// policy; any other panic is an engine bug and carries a stack.
func (s *Simulator) guard(f func()) {
	defer func() {
		if r := recover(); r != nil {
			if s.inPolicy {
				s.err = fmt.Errorf("policy %q panicked: %v", s.policyName, r)
			} else {
				s.err = fmt.Errorf("engine: internal error: %v\n%s", r, debug.Stack())
			}
		}
	}()
	f()
}

// runTo processes boundaries up to and including target.
func (s *Simulator) runTo(target int64) {
	for s.err == nil {
		next := s.nextStep()
		if next > target {
			s.step = max(s.step, target)
			return
		}
		s.step = next
		s.boundary()
	}
}

// nextStep is the next boundary at which anything is due.
func (s *Simulator) nextStep() int64 {
	if s.everyStep {
		return s.step + 1
	}
	next := int64(math.MaxInt64)
	for i := range s.replicas {
		next = min(next, s.replicas[i].due)
	}
	if s.wl.has {
		next = min(next, s.wl.nextStep)
	}
	if s.nextEvent < len(s.events) {
		next = min(next, ceilStep(s.events[s.nextEvent].At))
	}
	if s.sampler != nil {
		next = min(next, s.sampler.next)
	}
	if s.serving != nil {
		next = min(next, s.serving.nextStep())
	}
	return max(next, s.step+1)
}

// ceilStep is the first boundary at or after t ms.
func ceilStep(t float64) int64 { return int64(math.Ceil(t / StepMs)) }

// boundary does everything due at the current boundary.
func (s *Simulator) boundary() {
	now := s.Now()
	for s.nextEvent < len(s.events) && s.events[s.nextEvent].At <= now && s.err == nil {
		s.apply(s.events[s.nextEvent])
		s.nextEvent++
	}
	for i := range s.replicas {
		if r := &s.replicas[i]; r.due == s.step && s.err == nil {
			s.serve(r)
		}
	}
	if s.serving != nil {
		s.serving.boundary(s.step)
		for s.serving.held.len() > 0 && s.serving.held.headStep() <= s.step && s.err == nil {
			req := s.serving.held.pop()
			s.route(&req, false)
		}
	}
	for s.wl.has && s.wl.next.arrival <= now && s.err == nil {
		s.arrive(s.wl.take())
		s.wl.advance()
	}
	if s.sampler != nil && s.step == s.sampler.next {
		s.sampler.record(s)
	}
}

// arrive counts a new request and routes it, or holds it until its probes
// answer.
func (s *Simulator) arrive(req *request) {
	s.totals.Arrivals++
	if s.cohort != nil {
		s.cohort.arrive(req)
	}
	if s.serving != nil && s.serving.delay > 0 {
		s.serving.held.push(*req, s.step+s.serving.delay)
		return
	}
	s.route(req, false)
}

// apply carries out a replica event now.
func (s *Simulator) apply(e Event) {
	s.applied = append(s.applied, e)
	r := &s.replicas[e.Replica-1]
	switch e.Kind {
	case EventSlow:
		r.factor = e.Value
	case EventRestore:
		r.factor = 1
	case EventRecover:
		r.healthy = true
		if b, ok := r.srv.(*batchServer); ok {
			b.restart()
		}
		r.sync()
	case EventFail:
		if !r.healthy {
			return
		}
		r.healthy = false
		r.sync()
		// The in-flight request finishes; the waiting ones go back through the
		// router with their original arrival times and may be shed.
		s.reroute(r)
	}
}

// reroute sends r's waiting requests back through the router, in queue
// order, keeping their arrival times (they may be shed).
func (s *Simulator) reroute(r *replicaState) {
	for s.err == nil {
		req, ok := r.srv.popWaiting()
		if !ok {
			return
		}
		r.due = r.srv.due()
		r.sync()
		s.route(&req, true)
	}
}

// serve does what r's server has due now and records its completions.
func (s *Simulator) serve(r *replicaState) {
	var done []completion
	if r.fifo != nil {
		done = r.fifo.step(s.step, r.speed())
		r.due = r.fifo.due()
	} else {
		done = r.srv.step(s.step, r.speed())
		r.due = r.srv.due()
	}
	for i := range done {
		s.complete(r, &done[i])
	}
	r.sync()
	if !r.healthy { // requests a failed batching server preempted go elsewhere
		s.reroute(r)
	}
}

// complete records a completion at r now: the measurement, the router's
// statistics, and the policy's observation.
func (s *Simulator) complete(r *replicaState, c *completion) {
	now := s.Now()
	latency := now - c.req.arrival
	if !s.unwatched {
		s.live.add(latency, s.step)
	}
	s.totals.Completed++
	if s.cohort != nil {
		s.cohort.complete(&c.req, r.id, now)
		if s.cohort.srv != nil && s.cohort.member(c.req.arrival) {
			s.cohort.srv.add(c, now)
		}
	}
	r.svc.update(DefaultAlpha, c.service)
	r.rew.update(DefaultAlpha, reward(c.service, DefaultCeiling))
	r.n++
	s.completedObs++
	r.finished++
	s.inPolicy = true
	s.policy.Observe(r.id, c.service)
	if s.hooks.observer != nil {
		s.hooks.observer.ObserveCompletion(s.completionOf(r, c))
	}
	s.inPolicy = false
}

// completionOf is c as the router sees it.
func (s *Simulator) completionOf(r *replicaState, c *completion) Completion {
	out := Completion{
		Replica: r.id, Request: requestInfo(&c.req, false), ServiceMs: c.service, LatencyMs: s.Now() - c.req.arrival,
		TTFTMs: math.NaN(), ITLMs: math.NaN(), ITLP99Ms: math.NaN(),
	}
	if s.serving != nil {
		st := &c.serving
		out.TTFTMs = float64(st.firstToken)*StepMs - c.req.arrival
		out.ITLMs, out.ITLP99Ms = st.itlMean, st.itlP99
		out.OutputTokens, out.CachedTokens, out.Preemptions = int(c.req.output), st.cached, st.preemptions
	}
	return out
}

// route assigns req through the policy, or sheds it when no replica is eligible.
func (s *Simulator) route(req *request, rerouted bool) {
	v := s.buildView(req, rerouted, true)
	eligible := len(v.Eligible) // read before the policy, which may write to its view
	rejected := false
	if eligible > 0 && s.hooks.admitter != nil {
		s.inPolicy = true
		rejected = !s.hooks.admitter.Admit(v)
		s.inPolicy = false
	}
	if eligible == 0 || rejected {
		s.totals.Shed++
		if s.cohort != nil {
			s.cohort.drop(req)
		}
		s.decided(req, rerouted, eligible, 0, rejected)
		return
	}
	s.inPolicy = true
	id, err := s.policy.Pick(v)
	s.inPolicy = false
	if err != nil {
		s.err = fmt.Errorf("policy %q: %w", s.policyName, err)
		return
	}
	if !s.isEligible(id) {
		s.err = fmt.Errorf("policy %q picked replica %d, which is not eligible (eligible: %s)", s.policyName, id, idList(v.Eligible))
		return
	}
	r := &s.replicas[id-1]
	r.assigned++
	s.totals.Routed++
	if s.cohort != nil {
		s.cohort.assign(req, id)
	}
	if r.fifo != nil {
		r.fifo.put(req, s.step, r.speed())
		r.due = r.fifo.due()
	} else {
		r.srv.admit(*req, s.step, r.speed())
		r.due = r.srv.due()
	}
	r.sync()
	if s.serving != nil {
		s.serving.routed(id-1, req)
	}
	s.decided(req, rerouted, eligible, id, false)
}

// decided reports a routing decision to the OnDecision callback, building
// the record only when there is one.
func (s *Simulator) decided(req *request, rerouted bool, eligible, replica int, rejected bool) {
	if s.onDecision == nil {
		return
	}
	s.onDecision(Decision{
		Seq: req.seq, Arrival: req.arrival, At: s.Now(), Replica: replica,
		Rerouted: rerouted, Eligible: eligible, Rejected: rejected,
	})
}

// isEligible tells whether replica id was eligible in the view just built
// (nothing changes between building a view and reading the policy's pick).
func (s *Simulator) isEligible(id int) bool {
	if id < 1 || id > len(s.replicas) {
		return false
	}
	p := &s.replicas[id-1].pub
	return p.Healthy && p.Waiting < s.scn.QueueCap
}

func idList(rs []Replica) string {
	out := ""
	for i, r := range rs {
		if i > 0 {
			out += ", "
		}
		out += fmt.Sprint(r.ID)
	}
	return out
}

// buildView fills the reusable router view with copies of the replicas'
// public state, so a policy that writes to its view changes nothing. req is
// the request to route (nil for a snapshot); decide says the view is for a
// decision, which in the serving model draws its probes.
func (s *Simulator) buildView(req *request, rerouted, decide bool) *View {
	v := &s.view
	v.Now = s.Now()
	v.TotalCompleted = s.completedObs
	if req != nil {
		setRequestInfo(&v.Request, req, rerouted)
	} else {
		v.Request = RequestInfo{}
	}
	if s.serving != nil && decide {
		s.serving.probe(s)
	} else if s.serving != nil {
		s.serving.unprobe()
	}
	need := allSignals // a snapshot shows everything
	if decide {
		need = s.hooks.signals
	}
	var chain *prefix.Chain
	if s.serving != nil && need&prefixSignals != 0 {
		chain = s.serving.chainFor(req)
	}
	n := 0
	for i := range s.replicas {
		rv := &s.replicas[i].pub
		v.Replicas[i] = *rv
		if s.serving != nil {
			s.serving.signals(s.step, i, &v.Replicas[i], chain, need&loadSignals != 0)
		}
		if rv.Healthy && rv.Waiting < s.scn.QueueCap { // eligibility is the true state
			n++
		}
	}
	if n == len(s.replicas) { // the usual case: every replica, no second copy
		v.Eligible = v.Replicas
		return v
	}
	e := s.eligible[:0]
	for i := range v.Replicas {
		if rv := &s.replicas[i].pub; rv.Healthy && rv.Waiting < s.scn.QueueCap {
			e = append(e, v.Replicas[i])
		}
	}
	s.eligible = e
	v.Eligible = e
	return v
}

// Apply schedules an event (a live control) for the next boundary, where it
// takes effect exactly as the same event in the scenario's timeline would:
// a replica event before that boundary's completions and arrivals, a rate
// change rescaling the part of every gap that lies beyond it. So a run whose
// scenario holds LiveEvents from the start is identical to this one. The
// event's At is ignored; LiveEvents has the time it took effect.
func (s *Simulator) Apply(e Event) error {
	e.At = math.Inf(-1)
	return s.Schedule(e)
}

// insertEvent adds a replica event to those still to come, after the ones
// due at the same time (as a stable sort of the scenario's events would).
func (s *Simulator) insertEvent(e Event) {
	i := s.nextEvent
	for i < len(s.events) && s.events[i].At <= e.At {
		i++
	}
	s.events = slices.Insert(s.events, i, e)
}

// LiveEvents are the events given to Apply, in order, each with the time it
// took effect: the session's controls as a timeline to add to the scenario.
func (s *Simulator) LiveEvents() []Event { return slices.Clone(s.liveEvents) }

// Schedule is Apply for an event at a later time: at e.At, or at the next
// boundary if that is earlier. (A live burst schedules its end.)
func (s *Simulator) Schedule(e Event) error {
	next := float64(s.step+1) * StepMs
	if !finite(e.At) || e.At < next {
		e.At = next
	}
	if err := s.scn.validateEvent("event", e, math.Inf(1)); err != nil {
		return err
	}
	if s.err != nil {
		return s.err
	}
	switch e.Kind {
	case EventSetRate:
		s.wl.insertRate(e.At, e.Value)
	case EventScaleRate:
		s.wl.insertRate(e.At, xmath.Mul(s.scn.Rate, e.Value))
	default:
		s.insertEvent(e)
	}
	s.liveEvents = append(s.liveEvents, e)
	return nil
}

// Use makes the router switch to a fresh instance of policy at the next
// boundary, before its completions (which the new policy observes) and
// arrivals. Switches lists them, so that Switching(first, switches) replays
// the run exactly.
func (s *Simulator) Use(policy PolicySpec) error { return s.UseAt(math.Inf(-1), policy) }

// UseAt is Use at a later time: at (ms), or the next boundary if that is
// earlier.
func (s *Simulator) UseAt(at float64, policy PolicySpec) error {
	if policy.New == nil {
		return fieldErr("policy", policy.Name, "a policy with a constructor")
	}
	if s.err != nil {
		return s.err
	}
	if next := float64(s.step+1) * StepMs; !finite(at) || at < next {
		at = next
	}
	sw := PolicySwitch{At: at, Policy: policy}
	p, ok := s.policy.(*switching)
	if !ok {
		p = &switching{env: s.penv, cur: s.policy}
		s.policy, s.hooks = p, hooksOf(p)
	}
	i := p.next
	for i < len(p.switches) && p.switches[i].At <= at {
		i++
	}
	p.switches = slices.Insert(p.switches, i, sw)
	s.switches = append(s.switches, sw)
	return nil
}

// Switches are the policies given to Use, with the times they take over.
func (s *Simulator) Switches() []PolicySwitch { return slices.Clone(s.switches) }

// inSystem counts the cohort requests still waiting or in flight.
func (s *Simulator) inSystem() int {
	n := 0
	count := func(req request) {
		if s.cohort.member(req.arrival) {
			n++
		}
	}
	for i := range s.replicas {
		s.replicas[i].srv.each(count)
	}
	if s.serving != nil {
		for i := s.serving.held.head; i < len(s.serving.held.reqs); i++ {
			count(s.serving.held.reqs[i])
		}
	}
	return n
}

// eventsSoFar lists the events applied so far, rate changes included.
func (s *Simulator) eventsSoFar() []Event {
	out := slices.Clone(s.applied)
	for _, e := range append(s.scn.sortedEvents(), s.liveEvents...) {
		if !e.Kind.affectsReplica() && e.At <= s.Now() {
			out = append(out, e)
		}
	}
	slices.SortStableFunc(out, func(a, b Event) int { return cmpFloat(a.At, b.At) })
	return out
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
