package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/routelab/routelab/experiment"
)

// shardForm is what --shard accepts, for error messages.
const shardForm = "i/n with 1 <= i <= n, such as 2/7; or auto, or auto/n, inside a Kubernetes Indexed Job, a Slurm array or an AWS Batch array job"

// parseShard reads --shard: "i/n", "auto" or "auto/n". auto takes the
// index, and the count where the scheduler gives one, from the environment
// of a job array (lookup reads it; see jobArrays); n, when given, must
// agree with the scheduler's count. It returns the shard and, for auto,
// which scheduler's variables gave it.
func parseShard(spec string, lookup func(string) (string, bool)) (experiment.Shard, string, error) {
	head, tail, hasCount := strings.Cut(spec, "/")
	count := 0
	if hasCount {
		n, ok := positive(tail)
		if !ok {
			return experiment.Shard{}, "", badShard(spec)
		}
		count = n
	}
	if head == "auto" {
		return autoShard(spec, count, lookup)
	}
	index, ok := positive(head)
	if !ok || !hasCount || index > count {
		return experiment.Shard{}, "", badShard(spec)
	}
	return experiment.Shard{Index: index, Count: count}, "", nil
}

func badShard(spec string) error {
	return fmt.Errorf("--shard: %q is not allowed (want %s)", spec, shardForm)
}

// positive parses a decimal integer >= 1 written with digits only.
func positive(s string) (int, bool) {
	n, ok := natural(s)
	return n, ok && n >= 1
}

// natural parses a decimal integer >= 0 written with digits only (no sign,
// space or underscore), of at most nine digits.
func natural(s string) (int, bool) {
	if s == "" || len(s) > 9 || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// autoShard resolves "auto" and "auto/count" from the one job array whose
// variables are set.
func autoShard(spec string, count int, lookup func(string) (string, bool)) (experiment.Shard, string, error) {
	var found []jobArray
	for _, detect := range jobArrays() {
		a, present, err := detect(lookup)
		if err != nil {
			return experiment.Shard{}, "", fmt.Errorf("--shard %s: %w", spec, err)
		}
		if present {
			found = append(found, a)
		}
	}
	switch len(found) {
	case 0:
		return experiment.Shard{}, "", fmt.Errorf("--shard %s: no job-array environment (none of JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID or AWS_BATCH_JOB_ARRAY_INDEX is set); want %s", spec, shardForm)
	case 1:
	default:
		return experiment.Shard{}, "", fmt.Errorf("--shard %s: the variables of two job arrays are set, %s and %s; give the shard as i/n", spec, found[0].vars, found[1].vars)
	}
	return found[0].shard(spec, count)
}

// jobArray is what a scheduler's environment says of one task of a job
// array: the shard index (from 1), the count (0 when it gives none) and
// the variables it came from.
type jobArray struct {
	scheduler    string
	index, count int
	vars         string
}

// shard combines the array's index and count with a count given on the
// command line.
func (a jobArray) shard(spec string, count int) (experiment.Shard, string, error) {
	switch {
	case count == 0 && a.count == 0:
		return experiment.Shard{}, "", fmt.Errorf("--shard %s: %s gives the index only (%s): give the count too, --shard auto/n (n = the array's size)", spec, a.scheduler, a.vars)
	case count != 0 && a.count != 0 && count != a.count:
		return experiment.Shard{}, "", fmt.Errorf("--shard %s: %s says the array has %d tasks (%s), not %d", spec, a.scheduler, a.count, a.vars, count)
	case count == 0:
		count = a.count
	}
	if a.index > count {
		return experiment.Shard{}, "", fmt.Errorf("--shard %s: %s gives task %d of %d (%s); want an index within the count", spec, a.scheduler, a.index, count, a.vars)
	}
	return experiment.Shard{Index: a.index, Count: count}, fmt.Sprintf("%s (%s)", a.scheduler, a.vars), nil
}

// arrayDetector reads one scheduler's job-array variables; present is false
// when they are not set.
type arrayDetector func(lookup func(string) (string, bool)) (a jobArray, present bool, err error)

// jobArrays are the schedulers whose job arrays --shard auto understands.
func jobArrays() []arrayDetector {
	return []arrayDetector{kubernetesArray, slurmArray, awsBatchArray}
}

// kubernetesArray: an Indexed Job gives JOB_COMPLETION_INDEX, from 0, and
// no count (the manifest passes it: --shard auto/n).
func kubernetesArray(lookup func(string) (string, bool)) (jobArray, bool, error) {
	i, present, err := envNatural(lookup, "JOB_COMPLETION_INDEX")
	if !present || err != nil {
		return jobArray{}, present, err
	}
	return jobArray{scheduler: "Kubernetes", index: i + 1, vars: fmt.Sprintf("JOB_COMPLETION_INDEX=%d", i)}, true, nil
}

// awsBatchArray: an array job gives AWS_BATCH_JOB_ARRAY_INDEX, from 0, and
// the size in AWS_BATCH_JOB_ARRAY_SIZE when the job definition passes it.
func awsBatchArray(lookup func(string) (string, bool)) (jobArray, bool, error) {
	i, present, err := envNatural(lookup, "AWS_BATCH_JOB_ARRAY_INDEX")
	if !present || err != nil {
		return jobArray{}, present, err
	}
	a := jobArray{scheduler: "AWS Batch", index: i + 1, vars: fmt.Sprintf("AWS_BATCH_JOB_ARRAY_INDEX=%d", i)}
	size, hasSize, err := envNatural(lookup, "AWS_BATCH_JOB_ARRAY_SIZE")
	if err != nil {
		return jobArray{}, true, err
	}
	if hasSize {
		a.count = size
		a.vars += fmt.Sprintf(", AWS_BATCH_JOB_ARRAY_SIZE=%d", size)
	}
	return a, true, nil
}

// slurmArray: an array task gives SLURM_ARRAY_TASK_ID between
// SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_MAX, and the number of tasks in
// SLURM_ARRAY_TASK_COUNT. Only a contiguous range (--array=0-29, 1-30)
// numbers the tasks as shards: a step or a list is refused.
func slurmArray(lookup func(string) (string, bool)) (jobArray, bool, error) {
	id, present, err := envNatural(lookup, "SLURM_ARRAY_TASK_ID")
	if !present || err != nil {
		return jobArray{}, present, err
	}
	v := map[string]int{}
	for _, name := range []string{"SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_STEP"} {
		n, ok, err := envNatural(lookup, name)
		if err != nil {
			return jobArray{}, true, err
		}
		if ok {
			v[name] = n
		}
	}
	lo, hasMin := v["SLURM_ARRAY_TASK_MIN"]
	if !hasMin || id < lo {
		return jobArray{}, true, fmt.Errorf("SLURM_ARRAY_TASK_ID=%d needs SLURM_ARRAY_TASK_MIN, at most the id (Slurm sets both in an array job)", id)
	}
	a := jobArray{scheduler: "Slurm", index: id - lo + 1, vars: fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d, SLURM_ARRAY_TASK_MIN=%d", id, lo)}
	return a, true, a.slurmCount(v)
}

// slurmCount sets the count from SLURM_ARRAY_TASK_MAX or _COUNT, which must
// agree: they do not for an array with gaps.
func (a *jobArray) slurmCount(v map[string]int) error {
	if step, ok := v["SLURM_ARRAY_TASK_STEP"]; ok && step != 1 {
		return fmt.Errorf("a Slurm array with step %d (SLURM_ARRAY_TASK_STEP) does not number its tasks 1..n; use a contiguous range, such as --array=0-29", step)
	}
	lo := v["SLURM_ARRAY_TASK_MIN"]
	hi, hasMax := v["SLURM_ARRAY_TASK_MAX"]
	n, hasCount := v["SLURM_ARRAY_TASK_COUNT"]
	switch {
	case hasMax && hi < lo:
		return fmt.Errorf("SLURM_ARRAY_TASK_MAX=%d is below SLURM_ARRAY_TASK_MIN=%d", hi, lo)
	case hasMax && hasCount && hi-lo+1 != n:
		return fmt.Errorf("a Slurm array of %d tasks from %d to %d has gaps (SLURM_ARRAY_TASK_COUNT, _MIN, _MAX); use a contiguous range, such as --array=0-29", n, lo, hi)
	case hasMax:
		a.count = hi - lo + 1
		a.vars += fmt.Sprintf(", SLURM_ARRAY_TASK_MAX=%d", hi)
	case hasCount:
		a.count = n
		a.vars += fmt.Sprintf(", SLURM_ARRAY_TASK_COUNT=%d", n)
	}
	return nil
}

// envNatural reads a variable holding an integer >= 0; present is false
// when it is not set.
func envNatural(lookup func(string) (string, bool), name string) (n int, present bool, err error) {
	s, ok := lookup(name)
	if !ok {
		return 0, false, nil
	}
	n, valid := natural(strings.TrimSpace(s))
	if !valid {
		return 0, true, fmt.Errorf("%s=%q is not allowed (want an integer >= 0, as the scheduler sets it)", name, s)
	}
	return n, true, nil
}
