// Package engine is routelab's model: a seeded, exactly reproducible
// simulation of a router in front of N inference replicas, the routing
// policies, the scenarios, and the experiments that compare them.
//
// Read first:
//   - sim.go: the fixed 0.5 ms timestep simulator — what happens at a
//     boundary, and in which order;
//   - workload.go: how a seed becomes a request stream (four draws per
//     request, all before routing: common random numbers across policies);
//   - policy.go: the router's view and the built-in policies;
//   - experiment.go and study.go: Compare, Sweep and the specification's
//     exploration-weight study. An experiment keeps a small RunSummary per
//     run, and each whole RunResult only when asked (Keep), so its memory
//     need not grow with the length of its runs; jobs.go builds each run's
//     spec when a worker takes it, and the writers (report.go, jsonout.go)
//     format one run at a time;
//   - paired.go: confidence intervals of paired per-seed differences
//     between policies (common random numbers), asked for beside the
//     descriptive tables; metrics.go is the one list of metrics they, their
//     records and the paired figure read; study_stats.go the study's
//     standard errors and selection margin.
//
// docs/model.md is the reference for the model; docs/validation.md shows it
// agreeing with queueing theory (M/M/1, M/D/1, M/G/1, M/M/1/K, overload)
// and reproducing the specification's failure modes.
//
// The package uses only the standard library and imports nothing of
// notebooks, charts or interpreters. It never prints; runs take a context.
// Its values describe themselves: String, and HTML tables that a notebook
// finds by method name alone (show.go and its siblings).
// Randomness comes from Rand (xoshiro256**), with one stream per purpose, and
// the workload uses exactly specified elementary functions (xmath.go), so a
// seed gives the same workload on every platform and Go version.
package engine
