package kernel

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/routelab/routelab/internal/jupytertest"
	"github.com/routelab/routelab/internal/testutil"
)

// These tests drive the echokernel binary with Jupyter's own Python tools.

var echoKernel = &jupytertest.Binary{Package: "./internal/echokernel", Name: "echokernel"}

func TestMain(m *testing.M) {
	code := m.Run()
	echoKernel.Remove()
	os.Exit(code)
}

// jupyterEnv is a private Jupyter setup (jupytertest.Env) with the echo
// kernel installed as "routelab-echo" in its data directory.
func jupyterEnv(t *testing.T) []string {
	t.Helper()
	env := jupytertest.NewEnv(t)
	if _, err := Install(InstallOptions{Name: "routelab-echo", DisplayName: "Echo", Language: "echo",
		Executable: echoKernel.Path(t), Argv: []string{"{connection_file}"}, DataDir: env.DataDir}); err != nil {
		t.Fatal(err)
	}
	return env.Environ()
}

func TestJupyterConformanceSuite(t *testing.T) {
	py := python(t, "jupyter_kernel_test", "jupyter_client")
	cmd := exec.Command(py, filepath.Join("testdata", "jupyter", "test_conformance.py"), "-v")
	cmd.Env = append(jupyterEnv(t), "ROUTELAB_KERNEL_NAME=routelab-echo", "ROUTELAB_KERNEL_SAMPLES=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("jupyter_kernel_test failed: %v\n%s", err, out)
	}
	passed, skipped := jupytertest.ConformanceResults(out)
	t.Logf("passed %d: %s", len(passed), strings.Join(passed, " "))
	// Only the pager test needs a feature the kernel does not have.
	if len(passed) < 11 || strings.Join(skipped, " ") != "test_pager" {
		t.Errorf("passed %v, skipped %v\n%s", passed, skipped, out)
	}
}

func TestInstalledKernelIsListedByJupyter(t *testing.T) {
	exe := echoKernel.Path(t)
	prefix := filepath.Join(t.TempDir(), "prefix")
	jenv := jupytertest.NewEnv(t, filepath.Join(prefix, "share", "jupyter"))
	// Install's --user default resolves in process, through JUPYTER_DATA_DIR.
	jenv.Setenv(t)
	userDir, err := Install(InstallOptions{Executable: exe})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(jenv.DataDir, "kernels", "routelab"); userDir != want {
		t.Errorf("--user install went to %s, want %s", userDir, want)
	}
	prefixDir, err := Install(InstallOptions{Name: "routelab-prefix", Prefix: prefix, Executable: exe})
	if err != nil {
		t.Fatal(err)
	}
	env := jenv.Environ()
	specs := jupytertest.Kernelspecs(t, env)
	for name, dir := range map[string]string{"routelab": userDir, "routelab-prefix": prefixDir} {
		entry, ok := specs[name].(map[string]any)
		if !ok {
			t.Fatalf("%s not listed; jupyter sees %v", name, keys(specs))
		}
		spec := entry["spec"].(map[string]any)
		argv := spec["argv"].([]any)
		if entry["resource_dir"] != dir || argv[0] != exe || argv[1] != "kernel" || argv[2] != "{connection_file}" ||
			spec["interrupt_mode"] != "message" || spec["language"] != "go" || spec["display_name"] != DefaultDisplayName {
			t.Errorf("%s listed as %v", name, entry)
		}
	}
	for _, logo := range []string{"logo-32x32.png", "logo-64x64.png"} {
		if st, err := os.Stat(filepath.Join(userDir, logo)); err != nil || st.Size() < 100 {
			t.Errorf("%s: %v", logo, err)
		}
	}
	if _, err := Uninstall(InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, listed := jupytertest.Kernelspecs(t, env)["routelab"]; listed {
		t.Error("routelab still listed after Uninstall")
	}
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestNbconvertExecutesWithEchoKernel runs a notebook through nbclient (as
// `jupyter nbconvert --execute` does), including an interrupt on timeout.
func TestNbconvertExecutesWithEchoKernel(t *testing.T) {
	py := python(t, "nbconvert", "nbclient")
	env := jupyterEnv(t)
	dir := t.TempDir()
	nb := codeNotebook(t, "x = 1\nprint hi $x", "show d1 first", "update d1 second\nhtml <b>b</b>", "loop", "x")
	nb.Metadata["kernelspec"] = json.RawMessage(`{"name": "routelab-echo", "display_name": "Echo", "language": "echo"}`)
	data, _ := nb.Marshal()
	in := filepath.Join(dir, "in.ipynb")
	os.WriteFile(in, data, 0o644)
	cmd := exec.Command(py, "-m", "nbconvert", "--to", "notebook", "--execute", "--allow-errors",
		"--ExecutePreprocessor.timeout=2", "--ExecutePreprocessor.interrupt_on_timeout=True",
		"--output-dir", dir, "--output", "out", in)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nbconvert: %v\n%s", err, out)
	}
	got, err := ReadNotebook(filepath.Join(dir, "out.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	c := got.Cells
	if c[0].Outputs[0].Text != "hi 1\n" || c[1].Outputs[0].Data.Text() != "second" ||
		c[2].Outputs[0].Data["text/html"] != "<b>b</b>" {
		t.Errorf("outputs: %+v %+v %+v", c[0].Outputs[0], c[1].Outputs[0], c[2].Outputs[0])
	}
	if len(c[3].Outputs) == 0 || c[3].Outputs[0].EName != "Interrupted" {
		t.Errorf("timed-out cell: %+v", c[3].Outputs)
	}
	if len(c[4].Outputs) == 0 || c[4].Outputs[0].Data.Text() != "1" {
		t.Errorf("state after interrupt: %+v", c[4].Outputs)
	}
}

// TestEchoKernelSurvivesSIGINT sends a real SIGINT to the kernel process
// (never to the test binary): the running cell stops, the session stays.
func TestEchoKernelSurvivesSIGINT(t *testing.T) {
	exe := echoKernel.Path(t)
	ci := testConnectionInfo(t, testKey)
	cmd := exec.Command(exe, writeConnectionFile(t, ci))
	logs := &testutil.SyncBuffer{}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	c := dial(t, ci)
	c.execute("x = 11", nil)
	id := c.send(c.shell, "execute_request", map[string]any{"code": "loop"})
	waitFor(t, c, id, "execute_input")
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	r, ok := c.tryReply(c.shell, id, time.Second)
	if !ok || r.Content["ename"] != "Interrupted" {
		t.Fatalf("SIGINT did not interrupt the cell within 1s: %v\n%s", r.Content, logs.String())
	}
	if _, out := c.execute("x", nil); out[2].Content["data"].(map[string]any)["text/plain"] != "11" {
		t.Errorf("state lost after SIGINT: %v", out)
	}
	sid := c.send(c.control, "shutdown_request", map[string]any{"restart": false})
	c.reply(c.control, sid)
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("kernel exited with %v after shutdown\n%s", err, logs.String())
		}
		exited <- nil
	case <-time.After(5 * time.Second):
		t.Error("kernel process still running after shutdown_request")
	}
}

// TestNotebookServerRunsEchoKernel goes through a real Jupyter Notebook
// server: REST kernel start, websocket execute, REST interrupt.
func TestNotebookServerRunsEchoKernel(t *testing.T) {
	py := python(t, "notebook", "tornado")
	port := freePorts(t, 1)[0]
	script, err := filepath.Abs(filepath.Join("testdata", "jupyter", "notebook_server.py"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, script, "routelab-echo", fmt.Sprint(port))
	cmd.Env = jupyterEnv(t)
	cmd.Dir = t.TempDir()
	var stderr testutil.SyncBuffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("notebook server run: %v\n%s", err, stderr.String())
	}
	var got map[string]struct {
		Reply         map[string]any `json:"reply"`
		IOPub         []string       `json:"iopub"`
		Stream        string         `json:"stream"`
		ExecuteResult string         `json:"execute_result"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s\n%s", err, out, stderr.String())
	}
	first, intr, after := got["first"], got["interrupted"], got["after"]
	if first.Reply["status"] != "ok" || first.Stream != "hi 3\n" || first.ExecuteResult != "7" ||
		strings.Join(first.IOPub, " ") != "status:busy execute_input stream execute_result status:idle" {
		t.Errorf("first cell: %+v", first)
	}
	if intr.Reply["ename"] != "Interrupted" {
		t.Errorf("interrupt through the server: %+v", intr)
	}
	if after.ExecuteResult != "3" {
		t.Errorf("state after interrupt: %+v", after)
	}
}

// TestEchoKernelExitsWhenItsParentDies starts the kernel from a shell that
// then exits, as when a Jupyter server is killed: with JPY_PARENT_PID set,
// the orphaned kernel shuts itself down.
func TestEchoKernelExitsWhenItsParentDies(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	exe := echoKernel.Path(t)
	file := writeConnectionFile(t, testConnectionInfo(t, testKey))
	sh := exec.Command("/bin/sh", "-c", `"$0" "$1" >/dev/null 2>&1 & echo $!; sleep 0.5`, exe, file)
	sh.Env = append(os.Environ(), "JPY_PARENT_PID=1")
	out, err := sh.Output()
	if err != nil {
		t.Fatal(err)
	}
	pid := strings.TrimSpace(string(out))
	alive := func() bool {
		stat, err := os.ReadFile("/proc/" + pid + "/stat")
		if err != nil {
			return false
		}
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		return len(fields) > 0 && fields[0] != "Z"
	}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if !alive() {
			return
		}
	}
	if p, err := strconv.Atoi(pid); err == nil {
		syscall.Kill(p, syscall.SIGKILL)
	}
	t.Fatal("orphaned kernel still running 5 s after its parent exited")
}
