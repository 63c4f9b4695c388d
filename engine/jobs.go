package engine

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// runJobs runs every spec, in parallel on workers goroutines (GOMAXPROCS when
// workers < 1), and returns the results in spec order. Each run is a pure
// function of its spec, so the results do not depend on scheduling. After a
// failure, specs after the failing one are skipped, specs before it still
// run, and the error of the first failing spec is returned: the same error
// whatever the scheduling. Cancelling ctx returns an error wrapping
// ctx.Err() and no results.
func runJobs(ctx context.Context, specs []RunSpec, workers int, progress func(done, total int)) ([]*RunResult, error) {
	shareTokenTables(specs)
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, len(specs))
	results := make([]*RunResult, len(specs))
	errs := make([]error, len(specs))
	var next, done atomic.Int64
	var firstFailed atomic.Int64
	firstFailed.Store(int64(len(specs)))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(len(specs)) || i > firstFailed.Load() || ctx.Err() != nil {
					return
				}
				results[i], errs[i] = Run(ctx, specs[i])
				if errs[i] != nil {
					for f := firstFailed.Load(); i < f && !firstFailed.CompareAndSwap(f, i); f = firstFailed.Load() {
					}
					continue
				}
				if progress != nil {
					mu.Lock()
					progress(int(done.Add(1)), len(specs))
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("interrupted: %w", err)
	}
	if i := firstFailed.Load(); i < int64(len(specs)) {
		return nil, fmt.Errorf("%s, seed %d: %w", specs[i].Policy.Name, specs[i].Seed, errs[i])
	}
	return results, nil
}

// shareTokenTables prepares each distinct token model once for all runs.
func shareTokenTables(specs []RunSpec) {
	prepared := map[TokenModel]*tokenTables{}
	for i := range specs {
		d := specs[i].Scenario.Demand
		if d.Kind != TokenDemand || d.Tokens.validate() != nil {
			continue
		}
		t, ok := prepared[d.Tokens]
		if !ok {
			t = prepareTokens(d.Tokens)
			prepared[d.Tokens] = t
		}
		specs[i].tables = t
	}
}
