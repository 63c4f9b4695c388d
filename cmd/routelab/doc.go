// Command routelab is the one binary of the routing laboratory: seeded
// comparisons and studies from the shell, Go scripts, headless notebooks and
// the Jupyter kernel. docs/cli.md is the reference of its commands and flags,
// generated from the command tree by TestCLIReference.
//
// Read first: main.go (run, the cobra command tree, how a flag error and an
// exit status are reported, the help command), then one file per command:
//
//   - compare.go, sweep.go, study.go — the experiments (compareConfig's
//     flags are shared by sweep), with paired.go (--baseline and the paired
//     outputs), figures.go and outputs.go (the figure files asked for and
//     which flag names which output), progress.go (the status line on a
//     terminal) and suggest.go (the "did you mean" of an unknown name);
//   - scripted.go — the entries of --policies: built-in names and policy
//     files (FILE.go, loaded by dsl/symbols.LoadPolicyFile);
//   - shard.go, shardspec.go and merge.go — sharded runs: --shard i/n or
//     auto (from a Kubernetes Indexed Job's or Slurm array's environment),
//     writing and reading shard files (their format is package
//     experiment/shardfile), with version.go (the build that made a shard,
//     since merge refuses a mix), and `routelab merge`;
//   - policies.go (`routelab list`), exec.go (`routelab exec FILE.go`),
//     notebook.go (`routelab run NOTEBOOK.ipynb`), console.go
//     (`routelab console`);
//   - kernelcmd.go (`routelab kernel` and `routelab install`) and
//     worker.go (`routelab worker`, the child process that runs a session
//     for the kernel and `routelab run`, with its memory limit).
//
// internal/prebind binds the kernel's sockets while the binary is still
// initialising, so a client that connects early finds them listening.
//
// The packages it puts together: engine (the model and experiments), lab
// and dsl/symbols (the sessions of exec, run and the kernel), kernel and
// kernel/worker (Jupyter), console, and plot (the figures).
package main
