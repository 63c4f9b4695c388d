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

// runArray starts n tasks of the binary at once, each with its array
// environment and args (out names the task's file, %d its 0-based index,
// as a manifest would spell it), waits for all, and checks that each said
// where its shard came from.
func runArray(t *testing.T, exe string, task arrayTask, n int, args []string, out, scheduler string) {
	t.Helper()
	cmds := make([]*exec.Cmd, n)
	stderr := make([]bytes.Buffer, n)
	for i := range n {
		c := exec.Command(exe, append(slices.Clip(args), "--out", fmt.Sprintf(out, i))...)
		c.Env = append(cleanEnv(), task(i, n)...)
		c.Stderr = &stderr[i]
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[i] = c
	}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("task %d of %s: %v: %s", i, strings.Join(args, " "), err, stderr[i].String())
		}
		if want := fmt.Sprintf(": shard %d/%d from %s (", i+1, n, scheduler); !strings.Contains(stderr[i].String(), want) {
			t.Errorf("task %d said %q; want it to name %q", i, stderr[i].String(), want)
		}
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
	runArray(t, exe, kubernetesTask, 4, append(slices.Clip(args), "--shard", "auto/4"), filepath.Join(dir, "shard-%d.json"), "Kubernetes")
	merged := output(t, exe, "merge", filepath.Join(dir, "shard-*.json"), "--json")
	if want := output(t, exe, append(args, "--json")...); merged != want {
		t.Errorf("merged sweep differs from the unsharded one at %s", firstDifference(merged, want))
	}
}

// Slurm: a study in two array jobs of 3 tasks (`sbatch --array=1-3`), the
// second given the first's shards.
func TestSlurmArrayEmulation(t *testing.T) {
	exe, dir := routelab.Path(t), t.TempDir()
	study := writeStudyFile(t)
	args := []string{"study", study, "--policies", scriptedPolicies, "--shard", "auto"}
	runArray(t, exe, slurmTask, 3, args, filepath.Join(dir, "dev-%d.json"), "Slurm")
	runArray(t, exe, slurmTask, 3, append(slices.Clip(args), "--development", filepath.Join(dir, "dev-*.json")), filepath.Join(dir, "val-%d.json"), "Slurm")
	merged := output(t, exe, "merge", filepath.Join(dir, "dev-*.json"), filepath.Join(dir, "val-*.json"), "--json")
	if want := output(t, exe, "study", study, "--policies", scriptedPolicies, "--json"); merged != want {
		t.Errorf("merged study differs from the unsharded one at %s", firstDifference(merged, want))
	}
}

// AWS Batch: an array job of 5 children runs a comparison; the size comes
// from AWS_BATCH_JOB_ARRAY_SIZE.
func TestAWSBatchArrayEmulation(t *testing.T) {
	exe, dir := routelab.Path(t), t.TempDir()
	args := []string{"compare", "--scenario", "burst", "--heterogeneity", "high", "--seeds", "4", "--policies", "round-robin,adaptive,p2c"}
	runArray(t, exe, awsBatchTask, 5, append(slices.Clip(args), "--shard", "auto"), filepath.Join(dir, "shard-%d.json"), "AWS Batch")
	merged := output(t, exe, "merge", filepath.Join(dir, "shard-*.json"), "--json")
	if want := output(t, exe, append(args, "--json")...); merged != want {
		t.Errorf("merged comparison differs from the unsharded one at %s", firstDifference(merged, want))
	}
}
