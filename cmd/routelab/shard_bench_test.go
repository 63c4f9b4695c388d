package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/routelab/routelab/experiment"
	"github.com/routelab/routelab/experiment/shardfile"
)

// Benchmarks of sharding, on the real binary (docs/performance.md has the
// figures): the CPU of n shard processes against the unsharded process, a
// merge of 100 shards, and a shard's peak memory. They report; they assert
// nothing about time.
//
//	go test -run '^$' -bench 'Shard|Merge' -benchtime 1x -count 5 ./cmd/routelab/

// process is what running the binary cost.
type process struct {
	cpu    time.Duration // user + system
	wall   time.Duration
	peakMB float64 // maximum resident set size
}

func runProcess(b *testing.B, exe string, args ...string) process {
	b.Helper()
	c := exec.Command(exe, args...)
	c.Env = cleanEnv()
	var stderr strings.Builder
	c.Stdout, c.Stderr = io.Discard, &stderr
	start := time.Now()
	if err := c.Run(); err != nil {
		b.Fatalf("routelab %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	ps := c.ProcessState
	return process{
		cpu: ps.UserTime() + ps.SystemTime(), wall: time.Since(start),
		peakMB: float64(ps.SysUsage().(*syscall.Rusage).Maxrss) / 1024, // kilobytes on Linux
	}
}

// shardRounds runs an experiment in n shard processes, both rounds for a
// study, and returns their total CPU and the shard files.
func shardRounds(b *testing.B, exe, dir string, args []string, n int) (time.Duration, []string) {
	var cpu time.Duration
	var files []string
	round := func(prefix string, extra ...string) {
		for i := 1; i <= n; i++ {
			file := filepath.Join(dir, fmt.Sprintf("%s-%d.json", prefix, i))
			cpu += runProcess(b, exe, append(slices.Clip(args), append(extra, "--shard", fmt.Sprintf("%d/%d", i, n), "--out", file)...)...).cpu
			files = append(files, file)
		}
	}
	if args[0] == "study" {
		round("dev")
		round("val", "--development", filepath.Join(dir, "dev-*.json"))
	} else {
		round("shard")
	}
	return cpu, files
}

// The CPU of an experiment split into n shard processes against the same
// experiment in one process, both run by the binary the image holds
// (imageBinary, static), the shards with the collector they ship with
// (collectLess). What the split costs is each process's start, reading
// its configuration, writing its file and, for a study's second round,
// reading the first round's heads. The machine's speed drifts by more
// than that between runs seconds apart, so each iteration runs two pairs
// in opposite orders (unsharded then shards, shards then unsharded) and
// "%-overhead" compares their totals: a drift through the iteration
// weighs on both sides alike. Take the median over -count.
// "%-start-floor" is the CPU of starting as many extra processes (routelab
// --help), over the unsharded run's: the part of the overhead no shard
// code can remove.
func BenchmarkShardCPU(b *testing.B) {
	study := filepath.Join("..", "..", "examples", "study.json")
	study100 := filepath.Join("..", "..", "examples", "study-100-seeds.json")
	compare := []string{"compare", "--scenario", "burst", "--seeds", "2500"} // 10,000 runs
	study10k := tenThousandRunStudy(b, b.TempDir())
	for _, c := range []struct {
		name string
		args []string
		n    int
	}{
		{"compare-10000-runs/4-shards", compare, 4},
		{"compare-10000-runs/10-shards", compare, 10},
		{"study-10080-runs/4-shards", []string{"study", study10k}, 4},
		{"study-10080-runs/10-shards", []string{"study", study10k}, 10},
		{"study-spec/4-shards", []string{"study", study}, 4},
		{"study-100-seeds/30-shards", []string{"study", study100}, 30},
	} {
		b.Run(c.name, func(b *testing.B) {
			exe := imageBinary.Path(b)
			for range b.N {
				var whole, sharded time.Duration
				var files []string
				shards := func() {
					cpu, f := shardRounds(b, exe, b.TempDir(), c.args, c.n)
					sharded, files = sharded+cpu, f
				}
				unsharded := func() { whole += runProcess(b, exe, c.args...).cpu }
				unsharded()
				shards()
				shards()
				unsharded()
				merge := runProcess(b, exe, append([]string{"merge", "--json"}, files...)...)
				// The floor: what starting the extra processes costs before a
				// shard reads, runs or writes anything, as a share of the
				// unsharded run.
				var starts time.Duration
				for range len(files) - 1 {
					starts += runProcess(b, exe, "--help").cpu
				}
				b.ReportMetric(whole.Seconds()/2, "cpu-s-unsharded")
				b.ReportMetric(sharded.Seconds()/2, "cpu-s-shards")
				b.ReportMetric(100*(sharded.Seconds()-whole.Seconds())/whole.Seconds(), "%-overhead")
				b.ReportMetric(100*2*starts.Seconds()/whole.Seconds(), "%-start-floor")
				b.ReportMetric(merge.cpu.Seconds(), "cpu-s-merge")
			}
		})
	}
}

// A merge of 100 shards of a 10,080-run study (40 development and 45
// validation seeds over the specification's grid), 100 shards a round:
// reading and checking 200 files, assembling, writing the JSON.
func BenchmarkMerge100Shards(b *testing.B) {
	dir := b.TempDir()
	study := tenThousandRunStudy(b, dir)
	var files []string
	for _, round := range []struct{ prefix, dev string }{{"dev", ""}, {"val", filepath.Join(dir, "dev-*.json")}} {
		for i := 1; i <= 100; i++ {
			file := filepath.Join(dir, fmt.Sprintf("%s-%03d.json", round.prefix, i))
			args := []string{"study", study, "--shard", fmt.Sprintf("%d/100", i), "--out", file}
			if round.dev != "" {
				args = append(args, "--development", round.dev)
			}
			if code := run(context.Background(), args, strings.NewReader(""), io.Discard, io.Discard); code != 0 {
				b.Fatalf("study shard %s: exit %d", file, code)
			}
			files = append(files, file)
		}
	}
	b.Run("in-process", func(b *testing.B) {
		for range b.N {
			if code := run(context.Background(), append([]string{"merge", "--json"}, files...), strings.NewReader(""), io.Discard, io.Discard); code != 0 {
				b.Fatalf("merge: exit %d", code)
			}
		}
	})
	b.Run("process", func(b *testing.B) {
		exe := imageBinary.Path(b)
		for range b.N {
			p := runProcess(b, exe, append([]string{"merge", "--json"}, files...)...)
			b.ReportMetric(p.wall.Seconds(), "wall-s")
			b.ReportMetric(p.cpu.Seconds(), "cpu-s")
			b.ReportMetric(p.peakMB, "MB-peak-rss")
		}
	})
}

// tenThousandRunStudy writes a study of 10,080 runs into dir and returns
// its path: 40 development seeds (5,760 runs) and 45 validation seeds
// (4,320 runs) over the specification's grid.
func tenThousandRunStudy(b *testing.B, dir string) string {
	seeds := func(from, n int) string {
		s := make([]string, n)
		for i := range s {
			s[i] = fmt.Sprint(from + i)
		}
		return strings.Join(s, ",")
	}
	study := filepath.Join(dir, "study.json")
	cfg := fmt.Sprintf(`{"name":"ten thousand","rates_rps":[100,175,250],"heterogeneity":["default","high"],
	  "scenarios":["steady","burst","straggler","failure"],"weights":[0,0.05,0.1,0.2,0.35,0.5],
	  "development_seeds":[%s],"validation_seeds":[%s],"policies":["round-robin","least-queue","latency-aware","adaptive"],
	  "protocol":{"warmup_ms":3000,"measure_ms":12000,"slo_ms":50}}`, seeds(1, 40), seeds(1001, 45))
	if err := os.WriteFile(study, []byte(cfg), 0o644); err != nil {
		b.Fatal(err)
	}
	return study
}

// The peak memory of one shard of 10,000 runs (and of the worked example's
// development round whole, 14,400 runs): its runs' summaries, not their
// latencies. With a policy file (3 of its 5 policies interpreted, so 2,500
// runs), the dsl session comes on top.
func BenchmarkShardPeakRSS(b *testing.B) {
	policies := "round-robin,least-queue,latency-aware,adaptive"
	for _, c := range []struct {
		name string
		args []string
	}{
		{"compare-10000-runs", []string{"compare", "--scenario", "burst", "--seeds", "2500", "--policies", policies}},
		{"compare-2500-runs-policy-file", []string{"compare", "--scenario", "burst", "--seeds", "500", "--policies", "least-queue,adaptive," + scriptedPolicies}},
		{"study-100-seeds-development", []string{"study", filepath.Join("..", "..", "examples", "study-100-seeds.json")}},
	} {
		b.Run(c.name, func(b *testing.B) {
			exe := imageBinary.Path(b)
			for range b.N {
				out := filepath.Join(b.TempDir(), "shard.json")
				p := runProcess(b, exe, append(slices.Clip(c.args), "--shard", "1/1", "--out", out)...)
				st, err := os.Stat(out)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(p.peakMB, "MB-peak-rss")
				b.ReportMetric(p.cpu.Seconds(), "cpu-s")
				b.ReportMetric(float64(st.Size())/1e6, "MB-file")
			}
		})
	}
}

// What a validation shard of the worked example (docs/scaling.md: 100
// seeds, 30 shards a round) spends reading the 30 development shards'
// heads and selecting the weight, in-process.
func BenchmarkSelectFromDevelopmentHeads(b *testing.B) {
	study := filepath.Join("..", "..", "examples", "study-100-seeds.json")
	dir := b.TempDir()
	for i := 1; i <= 30; i++ {
		var stderr strings.Builder
		if code := run(context.Background(), []string{"study", study, "--shard", fmt.Sprintf("%d/30", i), "--out", dir + "/"}, strings.NewReader(""), io.Discard, &stderr); code != 0 {
			b.Fatalf("development shard %d: exit %d: %s", i, code, stderr.String())
		}
	}
	data, err := os.ReadFile(study)
	if err != nil {
		b.Fatal(err)
	}
	sc, err := experiment.ParseStudy(data, study)
	if err != nil {
		b.Fatal(err)
	}
	cfg := shardfile.StudyConfig(sc, (&policySet{}).source)
	patterns := []string{filepath.Join(dir, "study-development-*-of-30.json")}
	b.ResetTimer()
	for range b.N {
		if _, err := selectedBy(patterns, cfg, sc, buildVersion()); err != nil {
			b.Fatal(err)
		}
	}
}
