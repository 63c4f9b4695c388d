package live

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/routelab/routelab/engine"
)

// DefaultSpeed is the specification's dilation: one real second shows 120
// simulated ms, slow enough to follow individual requests.
const DefaultSpeed = 120.0

// Fastest is the speed of a session that advances as fast as it can (a
// headless run): set Options.Speed to it.
var Fastest = math.Inf(1)

// DefaultFrameEvery is how often a session publishes a frame.
const DefaultFrameEvery = 100 * time.Millisecond

// maxStepMs bounds how much simulated time one tick may cover at a finite
// speed: a process that stalls for seconds does not jump the view ahead.
const maxStepMs = 250.0

// Options configure a session.
type Options struct {
	Scenario engine.Scenario
	Policy   engine.PolicySpec
	Seed     uint64
	// Speed is simulated ms per real second: 0 means DefaultSpeed; Fastest
	// advances as fast as the machine allows.
	Speed float64
	// Until ends the session at this simulated time (ms); 0 runs until Stop.
	Until float64
	// FrameEvery is the real time between frames (0: DefaultFrameEvery).
	FrameEvery time.Duration
	// SLO (ms) colours requests and counts misses (0: the specification's).
	SLO float64
	// Measure, when set, measures the session as engine.Run measures a run
	// (warm-up, cohort, SLO; Until defaults to its cutoff), for Result.
	Measure *engine.Protocol
	// Paused starts the session paused at time zero, so that controls can be
	// scheduled with At before any time passes (Resume starts it).
	Paused bool
}

func (o *Options) defaults() {
	if o.Speed == 0 {
		o.Speed = DefaultSpeed
	}
	if o.FrameEvery <= 0 {
		o.FrameEvery = DefaultFrameEvery
	}
	if o.SLO == 0 {
		o.SLO = engine.DefaultProtocol().SLO
		if o.Measure != nil {
			o.SLO = o.Measure.SLO
		}
	}
	if o.Measure != nil && o.Until == 0 {
		o.Until = o.Measure.Horizon()
	}
}

func (o *Options) validate() error {
	if o.Policy.New == nil {
		return &engine.FieldError{Field: "policy", Value: o.Policy.Name, Allowed: "a policy with a constructor"}
	}
	if !(o.Speed > 0) || math.IsNaN(o.Speed) {
		return &engine.FieldError{Field: "speed", Value: o.Speed, Allowed: "simulated ms per real second > 0 (live.Fastest for as fast as possible)"}
	}
	if o.Until < 0 || math.IsNaN(o.Until) || math.IsInf(o.Until, 0) {
		return &engine.FieldError{Field: "until", Value: o.Until, Allowed: "a simulated time in ms >= 0 (0: until stopped)"}
	}
	if math.IsInf(o.Speed, 1) && o.Until == 0 {
		return &engine.FieldError{Field: "until", Value: o.Until, Allowed: "an end time in ms > 0 when the session runs as fast as possible"}
	}
	if !(o.SLO > 0) || math.IsInf(o.SLO, 0) {
		return &engine.FieldError{Field: "slo", Value: o.SLO, Allowed: "a number of ms > 0"}
	}
	return nil
}

// Session is one simulator advancing in (dilated) real time on its own
// goroutine, steered by controls that take effect at the current simulated
// time and are recorded, so that Scenario and Policy replay it exactly.
// Every method is safe to call from any goroutine.
type Session struct {
	opts    Options
	onFrame func(Frame)

	mu      sync.Mutex // guards everything below and the simulator
	sim     *engine.Simulator
	speed   float64
	paused  bool
	stopped bool
	err     error
	shares  shareWindow

	wake chan struct{} // a control or resume asks for a frame now
	done chan struct{} // closed when the goroutine has ended
	stop context.CancelFunc
}

// Start starts a session. onFrame receives every frame on the session's
// goroutine (it should return quickly); the last one has Done set. The
// session ends at Options.Until, on Stop, or when ctx ends.
func Start(ctx context.Context, opts Options, onFrame func(Frame)) (*Session, error) {
	opts.defaults()
	if err := opts.validate(); err != nil {
		return nil, err
	}
	if opts.Measure != nil {
		if err := opts.Measure.Validate(); err != nil {
			return nil, err
		}
	}
	sim, err := engine.NewSimulator(opts.Scenario, opts.Policy, engine.SimOptions{Seed: opts.Seed, Measure: opts.Measure})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	s := &Session{
		opts: opts, onFrame: onFrame, sim: sim, speed: opts.Speed, paused: opts.Paused,
		wake: make(chan struct{}, 1), done: make(chan struct{}), stop: cancel,
	}
	go s.run(ctx)
	return s, nil
}

// run advances the simulator tick by tick and publishes frames. At a finite
// speed a tick is a frame; as fast as possible it advances without waiting
// and publishes a frame every FrameEvery.
func (s *Session) run(ctx context.Context) {
	defer close(s.done)
	t := time.NewTicker(s.opts.FrameEvery)
	defer t.Stop()
	last, lastFrame := time.Now(), time.Time{}
	for {
		if lastFrame.IsZero() || !s.fast() || time.Since(lastFrame) >= s.opts.FrameEvery {
			s.publish(false)
			lastFrame = time.Now()
		}
		var now time.Time
		if s.fast() {
			select {
			case <-ctx.Done():
				s.finish(ctx.Err())
				return
			default:
				now = time.Now()
			}
		} else {
			select {
			case <-ctx.Done():
				s.finish(ctx.Err())
				return
			case <-s.wake:
				lastFrame = time.Time{}
				continue
			case now = <-t.C:
			}
		}
		ended := s.tick(now.Sub(last))
		last = now
		if ended {
			s.finish(nil)
			return
		}
	}
}

// fast reports whether the session runs as fast as possible now.
func (s *Session) fast() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return math.IsInf(s.speed, 1) && !s.paused
}

// tick advances by the simulated time real time is worth at the current
// speed; it reports whether the session has ended.
func (s *Session) tick(real time.Duration) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped || s.err != nil {
		return true
	}
	if s.paused {
		return false
	}
	dt := math.Min(s.speed*real.Seconds(), maxStepMs)
	if math.IsInf(s.speed, 1) {
		dt = 1000 // as fast as possible: a simulated second per turn
	}
	if s.opts.Until > 0 {
		dt = math.Min(dt, s.opts.Until-s.sim.Now())
	}
	if err := s.sim.Advance(dt); err != nil {
		s.err = err
		return true
	}
	s.shares.record(s.sim.Snapshot())
	return s.opts.Until > 0 && s.sim.Now() >= s.opts.Until
}

// At applies a control when simulated time reaches at (ms), however fast
// the session runs, exactly as the same event at that time in a scenario's
// timeline: a scripted sequence of controls at fixed times gives the same
// session on every run.
func (s *Session) At(at float64, c Control) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return errors.New("the live session has ended")
	}
	if !(at >= s.sim.Now()) || math.IsInf(at, 0) {
		return &engine.FieldError{Field: "at_ms", Value: at, Allowed: fmt.Sprintf("a simulated time from now (%g ms) on", s.sim.Now())}
	}
	return s.apply(at, c)
}

// apply schedules a control at simulated time at (-Inf: now); s.mu is held.
func (s *Session) apply(at float64, c Control) error {
	return c.apply(s.sim, at)
}

// Result is the session's measurement once it has ended at its protocol's
// cutoff (Options.Measure): what engine.Run gives for Scenario and Policy.
func (s *Session) Result() (*engine.RunResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sim.Result()
}

// finish marks the session ended (when it was not already) and publishes
// its last frame.
func (s *Session) finish(cause error) {
	s.mu.Lock()
	if s.err == nil && !s.stopped && cause != nil && !errors.Is(cause, context.Canceled) {
		s.err = cause
	}
	s.stopped = true
	s.mu.Unlock()
	s.publish(true)
}

func (s *Session) publish(done bool) {
	if s.onFrame == nil {
		return
	}
	s.mu.Lock()
	f := s.frame(done)
	s.mu.Unlock()
	s.onFrame(f)
}

// poke asks the goroutine for a frame now (after a control).
func (s *Session) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Stop ends the session and waits for its goroutine: no goroutine is left.
func (s *Session) Stop() {
	s.mu.Lock()
	s.stopped = true
	s.mu.Unlock()
	s.stop()
	<-s.done
}

// Done is closed when the session has ended.
func (s *Session) Done() <-chan struct{} { return s.done }

// Wait returns when the session has ended, with the error that ended it
// (nil for Until or Stop).
func (s *Session) Wait() error {
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Pause stops simulated time; Resume restarts it.
func (s *Session) Pause() { s.set(func() { s.paused = true }) }

// Resume restarts simulated time after Pause.
func (s *Session) Resume() { s.set(func() { s.paused = false }) }

// SetSpeed changes the dilation (simulated ms per real second, or Fastest).
func (s *Session) SetSpeed(msPerSecond float64) error {
	if !(msPerSecond > 0) {
		return &engine.FieldError{Field: "speed", Value: msPerSecond, Allowed: "simulated ms per real second > 0 (live.Fastest for as fast as possible)"}
	}
	s.set(func() { s.speed = msPerSecond })
	return nil
}

func (s *Session) set(f func()) {
	s.mu.Lock()
	f()
	s.mu.Unlock()
	s.poke()
}

// Do applies a control at the current simulated time (it takes effect at
// the next 0.5 ms boundary, as the same event in a timeline would).
func (s *Session) Do(c Control) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return errors.New("the live session has ended")
	}
	if err := s.apply(math.Inf(-1), c); err != nil {
		return err
	}
	s.poke()
	return nil
}

// Now is the simulated time in ms.
func (s *Session) Now() float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sim.Now()
}

// Frame is the session's state now.
func (s *Session) Frame() Frame {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.frame(s.stopped)
}

// Scenario is the session as a scenario: the original timeline with every
// control added at the time it took effect. Run with the same seed and
// Policy, it reproduces the session exactly.
func (s *Session) Scenario() engine.Scenario {
	s.mu.Lock()
	defer s.mu.Unlock()
	scn := s.opts.Scenario
	scn.Events = append(append([]engine.Event(nil), scn.Events...), s.sim.LiveEvents()...)
	scn.Name = scn.Name + " (live session)"
	return scn
}

// Policy is the session's routing: the starting policy, switched at the
// times Use changed it.
func (s *Session) Policy() engine.PolicySpec {
	s.mu.Lock()
	defer s.mu.Unlock()
	sw := s.sim.Switches()
	if len(sw) == 0 {
		return s.opts.Policy
	}
	return engine.Switching(s.opts.Policy, sw)
}

// Switches are the policy switches Use made, with the times they took
// effect.
func (s *Session) Switches() []engine.PolicySwitch {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sim.Switches()
}

// String says what the session is doing.
func (s *Session) String() string {
	f := s.Frame()
	state := "running"
	switch {
	case f.Done:
		state = "ended"
	case f.Paused:
		state = "paused"
	}
	return fmt.Sprintf("live %s with %s, seed %d, at %.1f s: %s", s.opts.Scenario.Name, f.Policy, s.opts.Seed, f.Now/1000, state)
}
