package engine

import "context"

// Runner runs many runs of known scenarios faster than Run, with the same
// results byte for byte: it prepares each scenario's token samplers once,
// and hands the buffers of one summary-only run (RunSpec.SummaryOnly) to
// the next, so an experiment of thousands of runs allocates them once. A
// Runner belongs to one goroutine; Fork gives another goroutine its own,
// sharing the prepared samplers.
type Runner struct {
	tables  map[TokenModel]*tokenTables // read only once made
	buffers runBuffers
}

// NewRunner prepares the token samplers of the scenarios. A run of another
// scenario is still run, its samplers prepared for that run alone.
func NewRunner(scenarios ...Scenario) *Runner {
	tables := map[TokenModel]*tokenTables{}
	for i := range scenarios {
		d := scenarios[i].Demand
		if d.Kind != TokenDemand || d.Tokens.validate() != nil {
			continue
		}
		if _, ok := tables[d.Tokens]; !ok {
			tables[d.Tokens] = prepareTokens(d.Tokens)
		}
	}
	return &Runner{tables: tables}
}

// Fork is a Runner for another goroutine, with the same samplers and
// buffers of its own.
func (r *Runner) Fork() *Runner { return &Runner{tables: r.tables} }

// Run is Run(ctx, spec) through the runner's samplers and buffers.
func (r *Runner) Run(ctx context.Context, spec RunSpec) (*RunResult, error) {
	var tables *tokenTables
	if d := spec.Scenario.Demand; d.Kind == TokenDemand {
		tables = r.tables[d.Tokens]
	}
	var buffers *runBuffers
	if spec.SummaryOnly {
		buffers = &r.buffers
	}
	return run(ctx, spec, tables, buffers)
}
