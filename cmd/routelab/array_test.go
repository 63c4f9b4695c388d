package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Each job-array flavour emulated: n processes of the real binary, started
// together with the variables Kubernetes, Slurm or AWS Batch give an array
// task and `--shard auto`, then a merge given a pattern (as a Kubernetes
// command without a shell passes it), whose --json must equal the unsharded
// run's byte for byte.

// arrayTask is the environment a scheduler gives task i (from 0) of n.
type arrayTask func(i, n int) []string

func kubernetesTask(i, _ int) []string { return []string{fmt.Sprintf("JOB_COMPLETION_INDEX=%d", i)} }

// slurmTask is a task of `sbatch --array=1-n`.
func slurmTask(i, n int) []string {
	return []string{fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d", i+1), "SLURM_ARRAY_TASK_MIN=1", fmt.Sprintf("SLURM_ARRAY_TASK_MAX=%d", n),
		fmt.Sprintf("SLURM_ARRAY_TASK_COUNT=%d", n), "SLURM_ARRAY_TASK_STEP=1", fmt.Sprintf("SLURM_ARRAY_JOB_ID=%d", 4242)}
}

func awsBatchTask(i, n int) []string {
	return []string{fmt.Sprintf("AWS_BATCH_JOB_ARRAY_INDEX=%d", i), fmt.Sprintf("AWS_BATCH_JOB_ARRAY_SIZE=%d", n)}
}

// cleanEnv is the test's environment without any job-array variable.
func cleanEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "JOB_COMPLETION_INDEX=") && !strings.HasPrefix(kv, "SLURM_ARRAY_") && !strings.HasPrefix(kv, "AWS_BATCH_JOB_ARRAY_") {
			out = append(out, kv)
		}
	}
	return out
}

// runArray starts n tasks at once, task i being command(i) with its array
// environment, waits for all, and checks that each said where its shard
// came from.
func runArray(t *testing.T, task arrayTask, n int, scheduler string, command func(i int) *exec.Cmd) {
	t.Helper()
	cmds := make([]*exec.Cmd, n)
	stderr := make([]bytes.Buffer, n)
	for i := range n {
		c := command(i)
		c.Env = append(append(cleanEnv(), c.Env...), task(i, n)...)
		c.Stderr = &stderr[i]
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[i] = c
	}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("task %d of %s: %v: %s", i, strings.Join(c.Args, " "), err, stderr[i].String())
		}
		if want := fmt.Sprintf(": shard %d/%d from %s (", i+1, n, scheduler); !strings.Contains(stderr[i].String(), want) {
			t.Errorf("task %d said %q; want it to name %q", i, stderr[i].String(), want)
		}
	}
}

// shardCommand runs the binary with args and --out: a file named by the
// task's index from 0 when out holds %d, as a manifest can spell it, or else
// the same directory for every task.
func shardCommand(exe string, args []string, out string) func(i int) *exec.Cmd {
	return func(i int) *exec.Cmd {
		file := out
		if strings.Contains(out, "%d") {
			file = fmt.Sprintf(out, i)
		}
		return exec.Command(exe, append(slices.Clip(args), "--out", file)...)
	}
}

// output runs the binary and returns its stdout.
func output(t *testing.T, exe string, args ...string) string {
	t.Helper()
	c := exec.Command(exe, args...)
	c.Env = cleanEnv()
	var stderr bytes.Buffer
	c.Stderr = &stderr
	out, err := c.Output()
	if err != nil {
		t.Fatalf("routelab %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// Kubernetes: an Indexed Job of 4 completions runs a sweep with a policy
// file; the manifest passes the count (auto/4).
func TestKubernetesIndexedJobEmulation(t *testing.T) {
	exe, dir := routelab.Path(t), t.TempDir()
	args := []string{"sweep", "--scenario", "straggler", "--rates", "100,200", "--seeds", "3", "--policies", "adaptive," + scriptedPolicies}
	runArray(t, kubernetesTask, 4, "Kubernetes", shardCommand(exe, append(slices.Clip(args), "--shard", "auto/4"), filepath.Join(dir, "shard-%d.json")))
	merged := output(t, exe, "merge", filepath.Join(dir, "shard-*.json"), "--json")
	if want := output(t, exe, append(args, "--json")...); merged != want {
		t.Errorf("merged sweep differs from the unsharded one at %s", firstDifference(merged, want))
	}
}

// Slurm: deploy/slurm/study.sbatch itself, run by bash as the tasks of two
// array jobs of 3 (`sbatch --array=1-3`), with the routelab binary on
// PATH, then the merge submit.sh wraps.
func TestSlurmArrayEmulation(t *testing.T) {
	exe, dir := routelab.Path(t), t.TempDir()
	study := writeStudyFile(t)
	script := filepath.Join(deployDir, "slurm", "study.sbatch")
	for _, round := range []string{"development", "validation"} {
		runArray(t, slurmTask, 3, "Slurm", func(int) *exec.Cmd {
			c := exec.Command("bash", script, study, dir, round)
			c.Env = []string{"PATH=" + filepath.Dir(exe) + string(os.PathListSeparator) + os.Getenv("PATH")}
			return c
		})
	}
	merged := output(t, exe, "merge", filepath.Join(dir, "study-*-of-*.json"), "--json")
	if want := output(t, exe, "study", study, "--json"); merged != want {
		t.Errorf("merged study differs from the unsharded one at %s", firstDifference(merged, want))
	}
}

// AWS Batch: an array job of 5 children runs a comparison; the size comes
// from AWS_BATCH_JOB_ARRAY_SIZE, and as a job definition's command cannot
// put the index in a file name, every child writes into one directory.
func TestAWSBatchArrayEmulation(t *testing.T) {
	exe, dir := routelab.Path(t), t.TempDir()
	args := []string{"compare", "--scenario", "burst", "--heterogeneity", "high", "--seeds", "4", "--policies", "round-robin,adaptive,p2c"}
	runArray(t, awsBatchTask, 5, "AWS Batch", shardCommand(exe, append(slices.Clip(args), "--shard", "auto"), dir+"/shards/"))
	names, _ := filepath.Glob(filepath.Join(dir, "shards", "*"))
	for i, name := range names {
		if want := fmt.Sprintf("compare-%d-of-5.json", i+1); filepath.Base(name) != want {
			t.Errorf("file %d is %s, want %s", i, filepath.Base(name), want)
		}
	}
	merged := output(t, exe, "merge", filepath.Join(dir, "shards", "*.json"), "--json")
	if want := output(t, exe, append(args, "--json")...); merged != want {
		t.Errorf("merged comparison differs from the unsharded one at %s", firstDifference(merged, want))
	}
}
