package engine

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/routelab/routelab/internal/record"
)

// FuzzParseScenarioFile feeds ParseScenarioFile what a user could hand to
// `routelab compare --scenario-file`: it never panics; an error names the
// file, and a bad value (a FieldError) is named in the message as it was
// read; a file it accepts validates, and written back with MarshalIndent
// it parses again to the same file (the encoding is a fixed point).
func FuzzParseScenarioFile(f *testing.F) {
	good := `{"scenario": {"name": "s", "rate_rps": 100, "speeds_ms": [8, 11], "queue_cap": 50, "arrivals": "poisson",
  "demand": {"kind": "exponential", "mean_ms": 11, "tokens": {"base_ms": 0, "prefill_ms_per_token": 0, "decode_ms_per_token": 0,
  "prompt": {"median": 0, "sigma": 0, "min": 0, "max": 0}, "output": {"median": 0, "sigma": 0, "min": 0, "max": 0}}},
  "jitter": 0.1, "events": [{"at_ms": 40000, "kind": "fail", "replica": 2}]}%s}`
	f.Add([]byte(strings.Replace(good, "%s", "", 1)))
	f.Add([]byte(strings.Replace(good, "%s", `, "session": {"seed": 1, "policy": "adaptive", "until_ms": 5.5,
  "switches": [{"at_ms": 3, "policy": "p2c"}], "counts": {"arrivals": 3, "completed": 1, "shed": 1, "unfinished": 1}}`, 1)))
	f.Add([]byte(`{"scenario": {}, "extra": 1}`))
	f.Add([]byte(`{"scenario": {"rate_rps": 1e999}}`))
	f.Add([]byte(`[1]`))
	f.Add([]byte(""))
	for _, name := range ScenarioNames() {
		scn, err := BuiltinScenario(name, DefaultRate, HighHeterogeneity)
		if err != nil {
			f.Fatal(err)
		}
		data, err := ScenarioFile{Scenario: scn}.MarshalIndent()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := ParseScenarioFile(data, "fuzz.json")
		var decoded ScenarioFile
		if derr := record.DecodeStrict(data, "fuzz.json", &decoded); derr != nil {
			// Not JSON of the file's shape: the error is the decoder's,
			// at a line and column inside the input.
			if err == nil || err.Error() != derr.Error() {
				t.Fatalf("undecodable input: ParseScenarioFile says %v, the decoder %v", err, derr)
			}
			if strings.HasPrefix(err.Error(), "fuzz.json: the file is empty") {
				if len(bytes.TrimSpace(data)) != 0 {
					t.Fatalf("called empty: %q", data)
				}
				return
			}
			var line, col int
			if _, serr := fmt.Sscanf(err.Error(), "fuzz.json:%d:%d:", &line, &col); serr != nil {
				t.Fatalf("the error has no position: %v", err)
			}
			if lines := bytes.Count(data, []byte("\n")) + 1; line < 1 || line > lines || col < 1 {
				t.Fatalf("the position %d:%d is outside the input's %d lines: %v", line, col, lines, err)
			}
			return
		}
		if err != nil {
			// Decoded but refused: a bad value, named with what is allowed.
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field == "" || fe.Allowed == "" {
				t.Fatalf("a refused value is not a FieldError naming the field and what is allowed: %#v", err)
			}
			if !strings.HasPrefix(err.Error(), "fuzz.json: ") || !strings.Contains(err.Error(), fe.Field+": "+formatValue(fe.Value)+" is not allowed (want "+fe.Allowed+")") {
				t.Fatalf("the error does not name the file, the field %s and its value %s: %v", fe.Field, formatValue(fe.Value), err)
			}
			if verr := decoded.Validate(); verr == nil || "fuzz.json: "+verr.Error() != err.Error() {
				t.Fatalf("ParseScenarioFile says %v, Validate %v", err, verr)
			}
			return
		}
		if err := file.Validate(); err != nil {
			t.Fatalf("a parsed file fails validation: %v", err)
		}
		once, err := file.MarshalIndent()
		if err != nil {
			t.Fatalf("a parsed file does not encode: %v", err)
		}
		back, err := ParseScenarioFile(once, "again.json")
		if err != nil {
			t.Fatalf("the file written back is refused: %v\n%s", err, once)
		}
		twice, err := back.MarshalIndent()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(once, twice) {
			t.Fatalf("written back and read again, the file changed:\n%s\nthen\n%s", once, twice)
		}
	})
}
