package experiment

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/routelab/routelab/engine"
)

// jobs are n runs described without holding them: spec builds the i-th
// run's spec when a worker takes it, and keep stores its result. So an
// experiment's memory holds what keep stores, never a list of n specs or
// results. keep is called concurrently, for distinct i. Each worker runs
// through its own fork of runner (nil: a Runner without prepared samplers).
type jobs struct {
	n      int
	spec   func(i int) engine.RunSpec
	keep   func(i int, r *engine.RunResult)
	runner *engine.Runner
}

// runJobs runs every job, in parallel on workers goroutines (GOMAXPROCS when
// workers < 1). Each run is a pure function of its spec, so what is kept
// does not depend on scheduling. After a failure, jobs after the failing one
// are skipped, jobs before it still run, and the error of the first failing
// job is returned: the same error whatever the scheduling. Cancelling ctx
// returns an error wrapping ctx.Err().
func runJobs(ctx context.Context, js jobs, workers int, progress func(done, total int)) error {
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	p := pool{jobs: js, progress: progress}
	p.firstFailed.Store(int64(js.n))
	var wg sync.WaitGroup
	for w := 0; w < min(workers, js.n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.work(ctx)
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("interrupted: %w", err)
	}
	if i := p.firstFailed.Load(); i < int64(js.n) {
		spec := js.spec(int(i))
		return fmt.Errorf("%s, seed %d: %w", spec.Policy.Name, spec.Seed, p.firstErr)
	}
	return nil
}

// pool is the shared state of runJobs' workers.
type pool struct {
	jobs
	progress    func(done, total int)
	next, done  atomic.Int64
	firstFailed atomic.Int64 // index of the first failed job; n when none
	mu          sync.Mutex   // serialises progress and guards firstErr
	firstErr    error
}

// work takes jobs in index order until none is left, one fails before the
// next, or ctx is cancelled.
func (p *pool) work(ctx context.Context) {
	runner := engine.NewRunner()
	if p.runner != nil {
		runner = p.runner.Fork()
	}
	for {
		i := p.next.Add(1) - 1
		if i >= int64(p.n) || i > p.firstFailed.Load() || ctx.Err() != nil {
			return
		}
		r, err := runner.Run(ctx, p.spec(int(i)))
		if err != nil {
			p.failed(i, err)
			continue
		}
		p.keep(int(i), r)
		if p.progress != nil {
			p.mu.Lock()
			p.progress(int(p.done.Add(1)), p.n)
			p.mu.Unlock()
		}
	}
}

// failed records job i's error if no earlier job has failed.
func (p *pool) failed(i int64, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if i < p.firstFailed.Load() {
		p.firstFailed.Store(i)
		p.firstErr = err
	}
}
