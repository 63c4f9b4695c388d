// Package engine is routelab's model: a seeded, exactly reproducible
// simulation of a router in front of N inference replicas, the routing
// policies and routers, and the scenarios they run. The experiments that
// compare policies (Compare, Sweep, Study, paired statistics) are package
// experiment, which imports this one; engine never imports it.
//
// Read first, by group:
//   - the simulator: sim.go (the fixed 0.5 ms timestep — what happens at a
//     boundary, and in which order), clock.go, queue.go, cohort.go (the
//     measurement protocol), run.go (Run, RunSummary, RunResult) and
//     runner.go (Runner: many runs with prepared samplers and reused
//     buffers, what experiments run through);
//   - the workload: workload.go (how a seed becomes a request stream: four
//     draws per request, all before routing, common random numbers across
//     policies), tokens.go, trace.go, rng.go, calibration.go;
//   - scenarios: scenario.go, scenariofile.go, serving_scenarios.go;
//   - the serving model, on the simulator's hot path: server.go (the seam
//     between a replica and its server) → batch.go, batch_queue.go →
//     span.go, decode.go → signals.go (what a router sees, and when),
//     serving.go, serving_workload.go, serving_metrics.go;
//   - the policy contract and the built-ins: policy.go (View, Replica,
//     Policy and its optional interfaces, the registry), switching.go,
//     routers.go and routers_scoring.go (the production routers);
//   - records: metrics.go (Metric, the one list of metrics, each pointing
//     at the RunSummary field it reports), report.go (RunRecord, Field,
//     WriteCSV), record.go (a run's whole record, lossless: RunRecord's
//     fields then the figures no metric reports, AppendRunJSON and the
//     strict DecodeRunJSON, what shard files keep), stats.go (latency
//     statistics);
//   - live views: live.go (a Simulator stepped by a console or notebook);
//   - display: show*.go, String and HTML for every type above;
//     run_records.go a single run's records (WriteCSV, WriteJSON, the
//     timeline's Records), for a run saved on its own;
//   - errors.go: FieldError and UnknownName, the error of every value that
//     is not allowed, naming the field, the value and what is.
//
// docs/model.md is the reference for the model; docs/validation.md shows it
// agreeing with queueing theory (M/M/1, M/D/1, M/G/1, M/M/1/K, overload)
// and reproducing the specification's failure modes.
//
// The package imports only the standard library and routelab's leaf
// packages under internal/ (sheet, record, xmath), never notebooks, charts
// or interpreters. It never prints; runs take a context. Its values
// describe themselves: String, and HTML tables that a notebook finds by
// method name alone. Randomness comes from Rand (xoshiro256**), with one
// stream per purpose, and the workload uses exactly specified elementary
// functions (internal/xmath), so a seed gives the same workload on every
// platform and Go version.
package engine
