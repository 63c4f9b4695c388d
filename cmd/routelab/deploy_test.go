package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/routelab/routelab/experiment"
)

// What deploy/ holds must run: the Kubernetes manifest's structure and its
// containers' arguments (run here, shard by shard, on a small study), the
// Slurm scripts (bash -n, then run as array tasks), and the Dockerfile's
// stages. docs/scaling.md's worked example — a 100-seed study over the 24
// conditions in 30 shards — is what they are written for.

var deployDir = filepath.Join("..", "..", "deploy")

// exampleShards is the worked example's shard count.
const exampleShards = 30

// job is what the tests read of a Kubernetes Job.
type job struct {
	name                          string
	args                          []string // the routelab container's
	initCommand                   []string // the waiting init container's, if any
	claims                        []string
	completions, parallelism      string
	completionMode, restartPolicy string
}

func manifestJobs(t *testing.T) (map[string]job, string) {
	t.Helper()
	docs, err := parseYAML(read(t, filepath.Join(deployDir, "kubernetes", "study.yaml")))
	if err != nil {
		t.Fatalf("deploy/kubernetes/study.yaml: %v", err)
	}
	jobs, claim := map[string]job{}, ""
	for _, d := range docs {
		m := d.(map[string]any)
		name := dig[string](t, m, "metadata", "name")
		switch m["kind"] {
		case "PersistentVolumeClaim":
			claim = name
			if modes := dig[[]any](t, m, "spec", "accessModes"); !slices.Contains(modes, any("ReadWriteMany")) {
				t.Errorf("the shards' volume is %v; every shard's pod writes it at once: want ReadWriteMany", modes)
			}
		case "Job":
			if m["apiVersion"] != "batch/v1" {
				t.Errorf("%s: apiVersion %v", name, m["apiVersion"])
			}
			jobs[name] = readJob(t, name, dig[map[string]any](t, m, "spec"))
		default:
			t.Errorf("unexpected %v %s", m["kind"], name)
		}
	}
	return jobs, claim
}

// dig follows keys into nested maps and returns the value there.
func dig[T any](t *testing.T, m map[string]any, keys ...string) T {
	t.Helper()
	var v any = m
	for _, k := range keys {
		mm, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%s: not a mapping", strings.Join(keys, "."))
		}
		v = mm[k]
	}
	x, ok := v.(T)
	if !ok {
		t.Fatalf("%s is %T (%v)", strings.Join(keys, "."), v, v)
	}
	return x
}

func strs(t *testing.T, v []any) []string {
	t.Helper()
	out := make([]string, len(v))
	for i, x := range v {
		s, ok := x.(string)
		if !ok {
			t.Fatalf("%v is not a list of strings", v)
		}
		out[i] = s
	}
	return out
}

func readJob(t *testing.T, name string, spec map[string]any) job {
	pod := dig[map[string]any](t, spec, "template", "spec")
	j := job{name: name, restartPolicy: dig[string](t, pod, "restartPolicy")}
	j.completions, _ = spec["completions"].(string)
	j.parallelism, _ = spec["parallelism"].(string)
	j.completionMode, _ = spec["completionMode"].(string)
	containers := dig[[]any](t, pod, "containers")
	if len(containers) != 1 {
		t.Fatalf("%s: %d containers", name, len(containers))
	}
	c := containers[0].(map[string]any)
	if _, hasCommand := c["command"]; hasCommand || !strings.HasPrefix(c["image"].(string), "routelab") {
		t.Errorf("%s: the container must run the routelab image's entrypoint with args only", name)
	}
	j.args = strs(t, dig[[]any](t, c, "args"))
	if inits, ok := pod["initContainers"].([]any); ok {
		j.initCommand = strs(t, dig[[]any](t, inits[0].(map[string]any), "command"))
	}
	for _, v := range dig[[]any](t, pod, "volumes") {
		if claim, ok := v.(map[string]any)["persistentVolumeClaim"].(map[string]any); ok {
			j.claims = append(j.claims, claim["claimName"].(string))
		}
	}
	return j
}

// The manifest is an Indexed Job per round of 30 completions, all 30 at
// once, each task running --shard auto/30, and a merge waiting for the last
// round; all share the shards' volume. So docs/scaling.md says.
func TestKubernetesManifest(t *testing.T) {
	jobs, claim := manifestJobs(t)
	n := fmt.Sprint(exampleShards)
	for _, name := range []string{"routelab-development", "routelab-validation"} {
		j, ok := jobs[name]
		if !ok {
			t.Fatalf("no Job %s", name)
		}
		if j.completionMode != "Indexed" || j.completions != n || j.parallelism != n {
			t.Errorf("%s: completionMode %q, completions %q, parallelism %q; want Indexed, %s, %s", name, j.completionMode, j.completions, j.parallelism, n, n)
		}
		if i := slices.Index(j.args, "--shard"); i < 0 || j.args[i+1] != "auto/"+n {
			t.Errorf("%s: args %v do not shard with --shard auto/%s", name, j.args, n)
		}
		if i := slices.Index(j.args, "--out"); i < 0 || !strings.HasSuffix(j.args[i+1], "/") {
			t.Errorf("%s: args %v do not write into a directory (--out DIR/), which names each file after its shard", name, j.args)
		}
	}
	merge := jobs["routelab-merge"]
	if merge.args[0] != "merge" || merge.completionMode != "" || merge.completions != "1" {
		t.Errorf("routelab-merge: args %v, completionMode %q, completions %q", merge.args, merge.completionMode, merge.completions)
	}
	for name, j := range jobs {
		if !slices.Equal(j.claims, []string{claim}) || (j.restartPolicy != "OnFailure" && j.restartPolicy != "Never") {
			t.Errorf("%s: volumes %v (want the claim %s), restartPolicy %s", name, j.claims, claim, j.restartPolicy)
		}
	}
	doc := read(t, filepath.Join("..", "..", "docs", "scaling.md"))
	for _, want := range []string{"30 shards", "completions: 30", "parallelism: 30", "--shard auto/30", "deploy/kubernetes/study.yaml"} {
		if !strings.Contains(doc, want) {
			t.Errorf("docs/scaling.md does not say %q", want)
		}
	}
}

// shardStudy writes a study of 2 conditions with 30 development runs and 32
// validation runs: enough for 30 shards in each round.
func shardStudy(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "study.json")
	cfg := `{"name":"thirty","rates_rps":[150],"heterogeneity":["high"],"scenarios":["straggler","failure"],
	  "weights":[0,0.1,0.35],"development_seeds":[1,2,3,4,5],"validation_seeds":[11,12,13,14,15,16,17,18],
	  "policies":["least-queue","adaptive"],"protocol":{"warmup_ms":3000,"measure_ms":12000,"slo_ms":50}}`
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The manifest's own arguments, run as Kubernetes would (each task with its
// JOB_COMPLETION_INDEX, the volume and the ConfigMap mapped to
// directories), and its init containers' wait conditions, checked before
// and after their round, give the unsharded study.
func TestKubernetesManifestRuns(t *testing.T) {
	jobs, _ := manifestJobs(t)
	study, shards := shardStudy(t), t.TempDir()
	local := func(arg string) string {
		arg = strings.ReplaceAll(arg, "/config/study.json", study)
		return strings.ReplaceAll(arg, "/shards/", shards+"/")
	}
	args := func(j job) []string {
		out := make([]string, len(j.args))
		for i, a := range j.args {
			out[i] = local(a)
		}
		return out
	}
	for _, round := range []string{"routelab-development", "routelab-validation"} {
		for i := range exampleShards {
			t.Setenv("JOB_COMPLETION_INDEX", fmt.Sprint(i))
			mustRun(t, args(jobs[round])...)
		}
	}
	os.Unsetenv("JOB_COMPLETION_INDEX")
	checkWait(t, jobs["routelab-validation"], filepath.Join(shards, "study-development-30-of-30.json"), local)
	checkWait(t, jobs["routelab-merge"], filepath.Join(shards, "study-validation-30-of-30.json"), local)
	mustRun(t, args(jobs["routelab-merge"])...)
	if got, want := read(t, filepath.Join(shards, "study.json")), mustRun(t, "study", study, "--json"); got != want {
		t.Errorf("the manifest's merged study.json differs from the unsharded study at %s", firstDifference(got, want))
	}
	if got, want := read(t, filepath.Join(shards, "study.txt")), mustRun(t, "study", study); got != want {
		t.Errorf("the manifest's study.txt differs from the unsharded table at %s", firstDifference(got, want))
	}
}

// checkWait runs an init container's wait condition (the test of its
// until-loop): false with the round's last shard file set aside, true with
// it in place.
func checkWait(t *testing.T, j job, last string, local func(string) string) {
	t.Helper()
	script := j.initCommand[len(j.initCommand)-1]
	m := regexp.MustCompile(`^until (.*); do sleep \d+; done$`).FindStringSubmatch(script)
	if len(j.initCommand) != 3 || j.initCommand[0] != "sh" || m == nil {
		t.Fatalf("%s: the init container runs %q, not an until-loop", j.name, j.initCommand)
	}
	cond := local(m[1])
	aside := last + ".aside"
	for _, c := range []struct {
		move   [2]string
		wantOK bool
	}{{[2]string{last, aside}, false}, {[2]string{aside, last}, true}} {
		if err := os.Rename(c.move[0], c.move[1]); err != nil {
			t.Fatal(err)
		}
		err := exec.Command("sh", "-c", cond).Run()
		if (err == nil) != c.wantOK {
			t.Errorf("%s: its wait condition %q is %v with %s in place: %v", j.name, cond, err == nil, filepath.Base(c.move[1]), err)
		}
	}
}

// The Slurm scripts parse (bash -n) and the array task script declares the
// worked example's array.
func TestSlurmScriptsParse(t *testing.T) {
	for _, name := range []string{"study.sbatch", "submit.sh"} {
		path := filepath.Join(deployDir, "slurm", name)
		if out, err := exec.Command("bash", "-n", path).CombinedOutput(); err != nil {
			t.Errorf("bash -n %s: %v\n%s", path, err, out)
		}
	}
	script := read(t, filepath.Join(deployDir, "slurm", "study.sbatch"))
	if !strings.Contains(script, fmt.Sprintf("#SBATCH --array=1-%d\n", exampleShards)) || !strings.Contains(script, "--shard auto") {
		t.Errorf("study.sbatch does not run --shard auto over an array of %d", exampleShards)
	}
}

// The Dockerfile builds a static binary in one stage and copies it alone
// into a small image in the next (docker cannot build here; this checks the
// structure, and the build command is the one this test's binary proves).
func TestDockerfile(t *testing.T) {
	var from, runs []string
	var copied, entry, user string
	for _, line := range strings.Split(read(t, filepath.Join(deployDir, "Dockerfile")), "\n") {
		instr, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
		switch instr {
		case "FROM":
			from = append(from, rest)
		case "RUN":
			runs = append(runs, rest)
		case "COPY":
			if strings.HasPrefix(rest, "--from=") {
				copied = rest
			}
		case "ENTRYPOINT":
			entry = rest
		case "USER":
			user = rest
		}
	}
	build := strings.Join(runs, "\n")
	// The benchmarks of sharding run imageBinary: built as the image's is.
	flags := strings.Replace(strings.Join(imageBinary.Flags, " "), "-ldflags=-s -w", `-ldflags="-s -w"`, 1)
	imageBuild := strings.Join(imageBinary.Env, " ") + " go build " + flags + " -o /out/routelab ./cmd/routelab"
	switch {
	case len(from) != 2 || !strings.HasPrefix(from[0], "golang:1.26") || !strings.HasSuffix(from[0], " AS build"):
		t.Errorf("stages %q: want a golang:1.26 build stage and one image stage", from)
	case !strings.Contains(from[1], "distroless/static") && from[1] != "scratch":
		t.Errorf("the image stage is %q, not a static base", from[1])
	case !strings.Contains(build, "CGO_ENABLED=0 go build") || !strings.Contains(build, "./cmd/routelab"):
		t.Errorf("the build stage does not build ./cmd/routelab with CGO_ENABLED=0: %q", build)
	case !strings.Contains(build, imageBuild):
		t.Errorf("the build stage does not run %q, as imageBinary builds: %q", imageBuild, build)
	case copied != "--from=build /out/routelab /usr/local/bin/routelab":
		t.Errorf("the image copies %q, not the binary alone", copied)
	case entry != `["/usr/local/bin/routelab"]`:
		t.Errorf("ENTRYPOINT %s: Kubernetes and Slurm pass routelab's arguments only", entry)
	case user == "" || strings.HasPrefix(user, "root"):
		t.Errorf("USER %q: run as a non-root user", user)
	}
	var e json.RawMessage
	if err := json.Unmarshal([]byte(entry), &e); err != nil {
		t.Errorf("ENTRYPOINT is not exec form: %v", err)
	}
}

// The worked example's study is the specification's grid at 100 seeds a
// phase: 14,400 development and 9,600 validation runs.
func TestStudy100SeedsExample(t *testing.T) {
	path := filepath.Join("..", "..", "examples", "study-100-seeds.json")
	cfg, err := experiment.ParseStudy([]byte(read(t, path)), path)
	if err != nil {
		t.Fatal(err)
	}
	dev, val := cfg.Runs()
	if len(cfg.Conditions()) != 24 || len(cfg.DevelopmentSeeds) != 100 || len(cfg.ValidationSeeds) != 100 || dev != 14400 || val != 9600 {
		t.Errorf("%d conditions, %d+%d seeds, %d+%d runs", len(cfg.Conditions()), len(cfg.DevelopmentSeeds), len(cfg.ValidationSeeds), dev, val)
	}
}
