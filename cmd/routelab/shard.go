package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
	"github.com/routelab/routelab/experiment/shardfile"
	"github.com/spf13/cobra"
)

// shardFlags make compare, sweep and study run one shard of their runs and
// write its file, for `routelab merge`.
type shardFlags struct {
	spec        string   // --shard: i/n, auto or auto/n
	out         string   // --out: the shard file
	development []string // --development (study): the development shards
}

func (f *shardFlags) bind(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.spec, "shard", "", "run one shard of the runs: i/n (1 <= i <= n), or auto or auto/n in a Kubernetes, Slurm or AWS Batch job array; writes --out for routelab merge")
	fl.StringVar(&f.out, "out", "", "with --shard: the shard file to write, or a directory (ending in /) to write it in, named after the shard: compare-03-of-10.json")
}

// bindDevelopment adds the study's second round: validation shards need
// the weight the development shards select.
func (f *shardFlags) bindDevelopment(cmd *cobra.Command) {
	cmd.Flags().StringSliceVar(&f.development, "development", nil,
		"with --shard: every development shard of the study (files or patterns such as 'dev-*.json'); the shard then runs its part of the validation phase")
}

// check refuses flags that do not go together, and an --out file the shard
// could not write or would write over one of inputs or --development,
// before anything runs.
func (f *shardFlags) check(cmd *cobra.Command, inputs ...string) error {
	if f.spec == "" {
		for _, name := range []string{"out", "development"} {
			if fl := cmd.Flags().Lookup(name); fl != nil && fl.Changed {
				return fmt.Errorf("--%s goes with --shard (a shard writes its runs to --out)", name)
			}
		}
		return nil
	}
	if _, _, err := parseShard(f.spec, os.LookupEnv); err != nil {
		return err
	}
	if f.out == "" {
		return errors.New("--shard needs --out FILE: the shard writes its runs there, for routelab merge")
	}
	if st, err := os.Stat(f.out); !strings.HasSuffix(f.out, "/") && (err != nil || !st.IsDir()) { // a file, not outPath's directory
		for _, d := range f.development {
			matches, _ := filepath.Glob(d) // a bad pattern is refused where it is read
			inputs = append(inputs, d)
			inputs = append(inputs, matches...)
		}
		if err := checkOutputs([]outFile{{"--out", f.out, nil}}, inputs...); err != nil {
			return err
		}
	}
	for _, name := range []string{"json", "csv", "csv-summary", "csv-paired", "baseline", "bootstrap", "html", "svg", "png", "pdf", "table"} { // the unsharded outputs
		if fl := cmd.Flags().Lookup(name); fl != nil && fl.Changed {
			return fmt.Errorf("--%s does not go with --shard: a shard writes only its file (--out); routelab merge writes tables, figures and paired statistics (merge --%s)", name, name)
		}
	}
	return nil
}

// start resolves the shard, says on stderr where auto found it, and begins
// its file.
func (f *shardFlags) start(stderr io.Writer, command string) (*shardfile.File, error) {
	s, from, err := parseShard(f.spec, os.LookupEnv)
	if err != nil {
		return nil, err
	}
	if from != "" {
		fmt.Fprintf(stderr, "%s: shard %v from %s\n", command, s, from)
	}
	return &shardfile.File{Format: shardfile.Format, FormatVersion: shardfile.FormatVersion, Version: buildVersion(),
		Shard: shardfile.ID{Index: s.Index, Count: s.Count}, From: from}, nil
}

// runSweep runs the shard's runs of a comparison or sweep and writes its
// file.
func (f *shardFlags) runSweep(ctx context.Context, cmd *cobra.Command, command string, sw experiment.Sweep, scripts *policySet) error {
	file, err := f.start(cmd.ErrOrStderr(), command)
	if err != nil {
		return err
	}
	s := file.Shard.Shard()
	cfg := shardfile.SweepConfig(command, sw, scripts.source)
	defer collectLess(s.Size(cfg.Runs("")))()
	sw.Progress = progressReporter(cmd.ErrOrStderr(), fmt.Sprintf("%s shard %v", command, s))
	runs, err := experiment.RunSweepShard(ctx, sw, s)
	if err != nil {
		return err
	}
	return f.write(cmd.ErrOrStderr(), file, cfg, runs)
}

// collectLess sets the collector for a shard of n runs, and returns what
// restores it. A shard's live heap is the program's own data and a summary
// per run, while each run allocates and drops 25–100 KB; with Go's default
// target (twice the live heap, at least 4 MB) the collector runs every few
// dozen runs, each time scanning the program's data, which cost a small
// shard 10–15 % of its CPU — the single process of an unsharded run, its
// heap grown by every summary, collects less often. So a shard collects
// only when its heap nears 96 MB plus three times its summaries' size:
// memory still bounded by the summaries, collections an order of magnitude
// rarer. GOGC or GOMEMLIMIT in the environment keep the Go defaults' way.
func collectLess(n int) (restore func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	const summaryBytes = 200
	percent := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(96<<20 + 3*summaryBytes*int64(n))
	return func() {
		debug.SetMemoryLimit(limit)
		debug.SetGCPercent(percent)
	}
}

// runStudy runs the shard's runs of the study's development phase or, with
// --development, of its validation phase, and writes its file.
func (f *shardFlags) runStudy(ctx context.Context, cmd *cobra.Command, sc experiment.StudyConfig, scripts *policySet, workers int) error {
	file, err := f.start(cmd.ErrOrStderr(), "study")
	if err != nil {
		return err
	}
	cfg := shardfile.StudyConfig(sc, scripts.source)
	s := file.Shard.Shard()
	file.Phase = "development"
	if len(f.development) > 0 {
		file.Phase = "validation"
	}
	defer collectLess(s.Size(cfg.Runs(file.Phase)))()
	if len(f.development) > 0 {
		selected, err := selectedBy(f.development, cfg, sc, file.Version)
		if err != nil {
			return err
		}
		file.Selected = &selected
	}
	progress := progressReporter(cmd.ErrOrStderr(), fmt.Sprintf("study %s shard %v", file.Phase, s))
	var runs []engine.RunSummary
	if file.Selected == nil {
		runs, err = experiment.RunStudyDevelopment(ctx, sc, s, workers, progress)
	} else {
		runs, err = experiment.RunStudyValidation(ctx, sc, *file.Selected, s, workers, progress)
	}
	if err != nil {
		return err
	}
	return f.write(cmd.ErrOrStderr(), file, cfg, runs)
}

// selectedBy is the weight the development shards select; they must be
// every development shard of this study, made by this build (version).
// Only their heads are read: a few numbers per development run.
func selectedBy(patterns []string, cfg shardfile.Config, sc experiment.StudyConfig, version string) (float64, error) {
	heads := shardfile.NewHeadReader(cfg)
	shards, err := readShardsWith(patterns, heads.Load, heads.Read)
	if err != nil {
		return 0, fmt.Errorf("--development: %w", err)
	}
	hash, err := cfg.Hash()
	if err != nil {
		return 0, err
	}
	for _, sh := range shards {
		switch {
		case sh.ConfigHash != hash:
			return 0, fmt.Errorf("--development: %s is a shard of another experiment (config sha256 %.12s…), not of this study (%.12s…)", sh.name, sh.ConfigHash, hash)
		case sh.Version != version:
			return 0, fmt.Errorf("--development: %s was made by %s; this is %s", sh.name, sh.Version, version)
		}
	}
	if err := checkSplit(shards); err != nil {
		return 0, fmt.Errorf("--development: %w", err)
	}
	attainment := make([]float64, shards[0].Total)
	for _, sh := range shards {
		s := sh.Shard.Shard()
		for k, a := range sh.Attainment {
			attainment[s.Run(k)] = float64(a)
		}
	}
	return experiment.SelectWeightFrom(sc, attainment)
}

// write completes the shard's file and writes it.
func (f *shardFlags) write(report io.Writer, file *shardfile.File, cfg shardfile.Config, runs []engine.RunSummary) error {
	if err := file.Fill(cfg, runs); err != nil {
		return err
	}
	data, err := file.Encode()
	if err != nil {
		return err
	}
	path, err := f.outPath(file)
	if err != nil {
		return err
	}
	return writeAtomic(report, path, data)
}

// outPath is --out, or, when --out is a directory (one that exists, or a
// path ending in /, created), a file in it named after the shard, its index
// padded so that names sort in shard order: compare-03-of-10.json,
// study-development-03-of-10.json. A scheduler that cannot put the index in
// a file name (AWS Batch) needs no shell then.
func (f *shardFlags) outPath(file *shardfile.File) (string, error) {
	if st, err := os.Stat(f.out); !strings.HasSuffix(f.out, "/") && (err != nil || !st.IsDir()) {
		return f.out, nil
	}
	if err := os.MkdirAll(f.out, 0o755); err != nil {
		return "", err
	}
	name := file.Config.Command
	if file.Phase != "" {
		name += "-" + file.Phase
	}
	width := len(fmt.Sprint(file.Shard.Count))
	return filepath.Join(f.out, fmt.Sprintf("%s-%0*d-of-%d.json", name, width, file.Shard.Index, file.Shard.Count)), nil
}

// writeAtomic writes data to path as writeStreamed does.
func writeAtomic(report io.Writer, path string, data []byte) error {
	return writeStreamed(report, path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// writeStreamed writes what write writes to path, through a temporary file
// in the same directory renamed into place, so that a reader of a shared
// volume never sees half a file; it reports the file as writeFile does.
func writeStreamed(report io.Writer, path string, write func(w io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	err = write(tmp)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	var st os.FileInfo
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		st, err = os.Stat(tmp.Name())
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return err
	}
	_, err = fmt.Fprintf(report, "wrote %s (%s)\n", path, byteSize(int(st.Size())))
	return err
}

// loadedShard is a shard file and the name it was read from.
type loadedShard struct {
	name string
	*shardfile.File
}

// readShards reads and checks shard files; arguments with *, ? or [ are
// patterns (expanded here, so that a Kubernetes command without a shell
// can name them), each of which must match a file.
func readShards(args []string) ([]loadedShard, error) {
	return readShardsWith(args, os.ReadFile, shardfile.Read)
}

// readShardsWith reads shard files: load gives a file's bytes, read makes
// them a shard.
func readShardsWith(args []string, load func(string) ([]byte, error), read func([]byte) (*shardfile.File, error)) ([]loadedShard, error) {
	var out []loadedShard
	for _, arg := range args {
		names := []string{arg}
		if strings.ContainsAny(arg, "*?[") {
			var err error
			if names, err = filepath.Glob(arg); err != nil || len(names) == 0 {
				return nil, fmt.Errorf("no file matches %q", arg)
			}
		}
		for _, name := range names {
			data, err := load(name)
			if err != nil {
				return nil, err
			}
			f, err := read(data)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			out = append(out, loadedShard{name, f})
		}
	}
	return out, nil
}

// sameExperiment requires every shard to be of one experiment and made by
// one build, naming the shards that differ.
func sameExperiment(shards []loadedShard) error {
	if g := groupBy(shards, func(s loadedShard) string { return s.ConfigHash }); len(g) > 1 {
		return fmt.Errorf("shards of different experiments: %s", g.describe("config sha256 %.12s…"))
	}
	if g := groupBy(shards, func(s loadedShard) string { return s.Version }); len(g) > 1 {
		return fmt.Errorf("shards made by different builds of routelab: %s", g.describe("made by %s"))
	}
	return nil
}

// shardGroups are shards grouped by a key, in the order keys first appear.
type shardGroups []shardGroup

type shardGroup struct {
	key   string
	names []string
}

func groupBy(shards []loadedShard, key func(loadedShard) string) shardGroups {
	var g shardGroups
	for _, s := range shards {
		k := key(s)
		i := 0
		for i < len(g) && g[i].key != k {
			i++
		}
		if i == len(g) {
			g = append(g, shardGroup{key: k})
		}
		g[i].names = append(g[i].names, s.name)
	}
	return g
}

// describe lists each group's shards and what keyed them.
func (g shardGroups) describe(format string) string {
	parts := make([]string, len(g))
	for i, grp := range g {
		parts[i] = cutNames(grp.names) + " (" + fmt.Sprintf(format, grp.key) + ")"
	}
	return strings.Join(parts, "; ")
}

// cutNames lists file names, at most four of them.
func cutNames(names []string) string {
	if len(names) <= 4 {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:4], ", "), len(names)-4)
}

// phaseRuns puts the runs of one split back in run order.
func phaseRuns(shards []loadedShard) ([]engine.RunSummary, error) {
	if err := checkSplit(shards); err != nil {
		return nil, err
	}
	out := make([]engine.RunSummary, shards[0].Total)
	for _, sh := range shards {
		s := sh.Shard.Shard()
		for k := range sh.Runs {
			out[s.Run(k)] = sh.Runs[k].Summary
		}
	}
	return out, nil
}

// checkSplit requires the shards to be of one split into n, each index
// 1..n once.
func checkSplit(shards []loadedShard) error {
	count := shards[0].Shard.Count
	byIndex := map[int]loadedShard{}
	for _, sh := range shards {
		if sh.Shard.Count != count {
			return fmt.Errorf("shards of different splits: %s is shard %v, %s is shard %v", shards[0].name, shards[0].Shard.Shard(), sh.name, sh.Shard.Shard())
		}
		if first, dup := byIndex[sh.Shard.Index]; dup {
			return fmt.Errorf("shard %v appears twice: %s and %s", sh.Shard.Shard(), first.name, sh.name)
		}
		byIndex[sh.Shard.Index] = sh
	}
	if missing := count - len(byIndex); missing > 0 {
		return fmt.Errorf("%d of %d shards missing: %s (have %s)", missing, count, missingIndices(byIndex, count), cutNames(names(shards)))
	}
	return nil
}

// missingIndices lists the first ten indices of 1..count not in have.
func missingIndices(have map[int]loadedShard, count int) string {
	var list []string
	for i := 1; i <= count && len(list) < 10; i++ {
		if _, ok := have[i]; !ok {
			list = append(list, fmt.Sprint(i))
		}
	}
	if missing := count - len(have); missing > len(list) {
		list = append(list, fmt.Sprintf("… (%d in all)", missing))
	}
	return strings.Join(list, ", ")
}

func names(shards []loadedShard) []string {
	out := make([]string, len(shards))
	for i, s := range shards {
		out[i] = s.name
	}
	return out
}
