// Package experiment is routelab's experiment design over the model of
// package engine: seeded comparisons of policies under common random
// numbers, sweeps, the specification's exploration-weight study, shards
// of any of them, and paired statistics.
//
// Read first, by group:
//   - experiment.go: Experiment and Compare, Summary (a policy's figures
//     across seeds) and Keep. An experiment keeps a small engine.RunSummary
//     per run, and each whole RunResult only when asked (Keep), so its
//     memory need not grow with the length of its runs; jobs.go builds each
//     run's spec when a worker takes it and runs it through the worker's
//     engine.Runner;
//   - sweep.go (Sweep, RateSweep), study.go and studyrun.go (StudyConfig,
//     RunStudy and its two phases), shard.go (Shard, RunSweepShard,
//     AssembleSweep); the shard file that carries a shard's runs to a merge
//     is the sub-package shardfile (shardfile.go the format, its encoder
//     and strict reader; head.go a development shard's head alone), each
//     run as engine's whole record (engine.AppendRunJSON);
//   - paired.go, interval.go, tdist.go: confidence intervals of paired
//     per-seed differences between policies, asked for beside the
//     descriptive tables; study_stats.go the study's standard errors and
//     selection margin;
//   - writers: report.go and paired_report.go (records, CSV, JSON and
//     text, one run at a time), table.go (Table, for the text, HTML and
//     LaTeX tables), columns.go (Column: the one list of a comparison
//     table's columns, which every table format takes), serving_metrics.go
//     (the serving columns), progress.go (ProgressLine and ProgressTotals,
//     the status line of work in progress), errors.go (engine's FieldError for the
//     experiment's own configurations);
//   - display: show*.go, String and HTML for every type above.
//
// Results are the same bytes whatever the parallelism: each run is a pure
// function of its spec, and what is kept does not depend on scheduling.
// docs/statistics.md describes the statistics.
package experiment
