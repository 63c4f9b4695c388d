package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/routelab/routelab/engine"
)

// A scenario file runs as the scenario it holds: the built-in straggler
// saved as a file compares exactly as --scenario straggler does. Events
// beyond the run are refused with the value, the limit and the way out.
func TestCompareScenarioFile(t *testing.T) {
	dir := t.TempDir()
	scn, err := engine.BuiltinScenario("straggler", 150, engine.HighHeterogeneity)
	if err != nil {
		t.Fatal(err)
	}
	path := writeScenarioFile(t, dir, "straggler.json", scn)
	fromFile, stderr, code := runCLI(t, "compare", "--scenario-file", path, "--seeds", "3", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	builtin, _, _ := runCLI(t, "compare", "--scenario", "straggler", "--rate", "150", "--heterogeneity", "high", "--seeds", "3", "--json")
	if fromFile != builtin {
		t.Error("the scenario file compares differently from the built-in scenario it holds")
	}

	scn.Events = append(scn.Events, engine.Event{At: 20000, Kind: engine.EventFail, Replica: 3})
	late := writeScenarioFile(t, dir, "late.json", scn)
	_, stderr, code = runCLI(t, "compare", "--scenario-file", late, "--seeds", "1")
	if want := "late.json: events[2].at_ms: 20000 is not allowed (want a time within the run, 0 to 15000 ms) (a longer run: --warmup, --measure)"; code == 0 || !strings.Contains(stderr, want) {
		t.Errorf("an event after the run: exit %d, stderr %q, want %q", code, stderr, want)
	}
	if _, stderr, code := runCLI(t, "compare", "--scenario-file", late, "--seeds", "1", "--measure", "18"); code != 0 {
		t.Errorf("with --measure 18: exit %d, %s", code, stderr)
	}
	_, stderr, code = runCLI(t, "compare", "--scenario-file", path, "--rate", "200")
	if code == 0 || !strings.Contains(stderr, "scenario-file") || !strings.Contains(stderr, "rate") {
		t.Errorf("--scenario-file with --rate: exit %d, %q", code, stderr)
	}
	if _, stderr, code := runCLI(t, "compare", "--scenario-file", filepath.Join(dir, "missing.json")); code == 0 || !strings.Contains(stderr, "missing.json") {
		t.Errorf("a missing file: exit %d, %q", code, stderr)
	}
}

func writeScenarioFile(t *testing.T, dir, name string, scn engine.Scenario) string {
	t.Helper()
	data, err := engine.ScenarioFile{Scenario: scn}.MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
