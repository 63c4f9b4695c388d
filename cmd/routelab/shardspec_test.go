package main

import (
	"strings"
	"testing"

	"github.com/routelab/routelab/experiment"
)

// env is a fake environment for parseShard.
type env map[string]string

func (e env) lookup(name string) (string, bool) {
	v, ok := e[name]
	return v, ok
}

func TestParseShard(t *testing.T) {
	for _, c := range []struct {
		spec string
		env  env
		want experiment.Shard
		from string
	}{
		{"2/7", nil, experiment.Shard{Index: 2, Count: 7}, ""},
		{"1/1", nil, experiment.Shard{Index: 1, Count: 1}, ""},
		{"7/7", env{"JOB_COMPLETION_INDEX": "0"}, experiment.Shard{Index: 7, Count: 7}, ""}, // i/n ignores the environment
		{"auto/30", env{"JOB_COMPLETION_INDEX": "0"}, experiment.Shard{Index: 1, Count: 30}, "Kubernetes (JOB_COMPLETION_INDEX=0)"},
		{"auto/30", env{"JOB_COMPLETION_INDEX": "29"}, experiment.Shard{Index: 30, Count: 30}, "Kubernetes (JOB_COMPLETION_INDEX=29)"},
		{"auto", env{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "29", "SLURM_ARRAY_TASK_COUNT": "30", "SLURM_ARRAY_TASK_STEP": "1"},
			experiment.Shard{Index: 5, Count: 30}, "Slurm (SLURM_ARRAY_TASK_ID=4, SLURM_ARRAY_TASK_MIN=0, SLURM_ARRAY_TASK_MAX=29)"},
		{"auto", env{"SLURM_ARRAY_TASK_ID": "30", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "30"},
			experiment.Shard{Index: 30, Count: 30}, "Slurm (SLURM_ARRAY_TASK_ID=30, SLURM_ARRAY_TASK_MIN=1, SLURM_ARRAY_TASK_MAX=30)"},
		{"auto/12", env{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "12"},
			experiment.Shard{Index: 3, Count: 12}, "Slurm (SLURM_ARRAY_TASK_ID=3, SLURM_ARRAY_TASK_MIN=1, SLURM_ARRAY_TASK_COUNT=12)"},
		{"auto", env{"AWS_BATCH_JOB_ARRAY_INDEX": "2", "AWS_BATCH_JOB_ARRAY_SIZE": "3"},
			experiment.Shard{Index: 3, Count: 3}, "AWS Batch (AWS_BATCH_JOB_ARRAY_INDEX=2, AWS_BATCH_JOB_ARRAY_SIZE=3)"},
		{"auto/5", env{"AWS_BATCH_JOB_ARRAY_INDEX": "0"}, experiment.Shard{Index: 1, Count: 5}, "AWS Batch (AWS_BATCH_JOB_ARRAY_INDEX=0)"},
	} {
		got, from, err := parseShard(c.spec, c.env.lookup)
		if err != nil || got != c.want || from != c.from {
			t.Errorf("%q with %v: %v from %q (%v), want %v from %q", c.spec, c.env, got, from, err, c.want, c.from)
		}
	}
}

func TestParseShardErrors(t *testing.T) {
	k8s := env{"JOB_COMPLETION_INDEX": "3"}
	for _, c := range []struct {
		spec string
		env  env
		want string
	}{
		{"0/3", nil, `--shard: "0/3" is not allowed (want i/n with 1 <= i <= n, such as 2/7; or auto, or auto/n, inside a Kubernetes Indexed Job, a Slurm array or an AWS Batch array job)`},
		{"4/3", nil, `"4/3" is not allowed`},
		{"a/b", nil, `"a/b" is not allowed`},
		{"+1/3", nil, `"+1/3" is not allowed`},
		{" 1/3", nil, `" 1/3" is not allowed`},
		{"1/3/5", nil, `"1/3/5" is not allowed`},
		{"1/", nil, `"1/" is not allowed`},
		{"", nil, `"" is not allowed`},
		{"1/9999999999", nil, `"1/9999999999" is not allowed`},
		{"auto/0", k8s, `"auto/0" is not allowed`},
		{"AUTO", k8s, `"AUTO" is not allowed`},
		{"auto", nil, "--shard auto: no job-array environment (none of JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID or AWS_BATCH_JOB_ARRAY_INDEX is set); want i/n"},
		{"auto", k8s, "--shard auto: Kubernetes gives the index only (JOB_COMPLETION_INDEX=3): give the count too, --shard auto/n (n = the array's size)"},
		{"auto/3", k8s, "--shard auto/3: Kubernetes gives task 4 of 3 (JOB_COMPLETION_INDEX=3); want an index within the count"},
		{"auto/4", env{"JOB_COMPLETION_INDEX": "x"}, `--shard auto/4: JOB_COMPLETION_INDEX="x" is not allowed (want an integer >= 0, as the scheduler sets it)`},
		{"auto/4", env{"JOB_COMPLETION_INDEX": "-1"}, `JOB_COMPLETION_INDEX="-1" is not allowed`},
		{"auto/4", env{"JOB_COMPLETION_INDEX": "1", "AWS_BATCH_JOB_ARRAY_INDEX": "1"}, "--shard auto/4: the variables of two job arrays are set, JOB_COMPLETION_INDEX=1 and AWS_BATCH_JOB_ARRAY_INDEX=1; give the shard as i/n"},
		{"auto/10", env{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "29"}, "--shard auto/10: Slurm says the array has 30 tasks (SLURM_ARRAY_TASK_ID=3, SLURM_ARRAY_TASK_MIN=0, SLURM_ARRAY_TASK_MAX=29), not 10"},
		{"auto", env{"SLURM_ARRAY_TASK_ID": "3"}, "SLURM_ARRAY_TASK_ID=3 needs SLURM_ARRAY_TASK_MIN"},
		{"auto", env{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "0"}, "Slurm gives the index only"},
		{"auto", env{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "8", "SLURM_ARRAY_TASK_STEP": "2"}, "a Slurm array with step 2 (SLURM_ARRAY_TASK_STEP) does not number its tasks 1..n"},
		{"auto", env{"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "7", "SLURM_ARRAY_TASK_COUNT": "3"}, "a Slurm array of 3 tasks from 1 to 7 has gaps"},
		{"auto", env{"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "5", "SLURM_ARRAY_TASK_MAX": "4"}, "SLURM_ARRAY_TASK_MAX=4 is below SLURM_ARRAY_TASK_MIN=5"},
		{"auto/3", env{"AWS_BATCH_JOB_ARRAY_INDEX": "1", "AWS_BATCH_JOB_ARRAY_SIZE": "4"}, "AWS Batch says the array has 4 tasks"},
	} {
		_, _, err := parseShard(c.spec, c.env.lookup)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q with %v: %v, want an error containing %q", c.spec, c.env, err, c.want)
		}
	}
}

// The parser never panics; what it accepts is a valid shard, and an i/n it
// accepts reads back from its own spelling. Seeds under
// testdata/fuzz/FuzzParseShard are regression tests.
func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"2/7", "auto", "auto/30", "0/3", "a/b", "1/1", "auto/"} {
		f.Add(s, "", "", "", "", "")
	}
	f.Add("auto", "3", "", "", "", "")
	f.Add("auto", "", "4", "0", "29", "")
	f.Add("auto/5", "", "", "", "", "2")
	f.Fuzz(func(t *testing.T, spec, k8s, slurmID, slurmMin, slurmMax, aws string) {
		e := env{}
		for name, v := range map[string]string{"JOB_COMPLETION_INDEX": k8s, "SLURM_ARRAY_TASK_ID": slurmID,
			"SLURM_ARRAY_TASK_MIN": slurmMin, "SLURM_ARRAY_TASK_MAX": slurmMax, "AWS_BATCH_JOB_ARRAY_INDEX": aws} {
			if v != "" {
				e[name] = v
			}
		}
		s, from, err := parseShard(spec, e.lookup)
		if err != nil {
			return
		}
		if s.Validate() != nil {
			t.Fatalf("%q gave an invalid shard %v", spec, s)
		}
		if from == "" {
			again, _, err := parseShard(s.String(), e.lookup)
			if err != nil || again != s {
				t.Fatalf("%q gave %v, which reads back as %v (%v)", spec, s, again, err)
			}
		}
	})
}
