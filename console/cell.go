package console

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/routelab/routelab/engine"
)

// goCell writes a recorded session as a Go cell that replays it: the
// scenario built with lab, the policy (switching as it did, through
// engine.Switching), and lab.Run from time zero to the end of the
// recording, printing the counts the console showed then. It runs in a
// notebook or with `routelab exec`. A session that used a policy of the
// policies file carries the file's source, so the cell stands alone.
func goCell(rec engine.ScenarioFile, policies *policySet) (string, error) {
	scn, r := rec.Scenario, rec.Session
	if err := plainModel(scn); err != nil {
		return "", err
	}
	if r.Until <= 0 {
		return "", fmt.Errorf("the session has not started yet: nothing to replay")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "// The routelab console session %q, replayed: seed %d, %s, %s s of\n", scn.Name, r.Seed, r.Policy, seconds(r.Until))
	fmt.Fprintf(&b, "// simulated time. At %g ms the console showed %d arrivals, %d completed,\n", r.Until, r.Counts.Arrivals, r.Counts.Completed)
	fmt.Fprintf(&b, "// %d shed and %d unfinished; the replay prints the same. Run it with\n", r.Counts.Shed, r.Counts.Unfinished)
	fmt.Fprintf(&b, "// `routelab exec %s`, or paste it into a notebook cell.\n\n", fileName(rec, "go"))
	if len(r.Switches) > 0 {
		b.WriteString("import \"github.com/routelab/routelab/engine\"\n\n")
	}
	policy, usesFile, err := policyCode(r, policies)
	if err != nil {
		return "", err
	}
	if usesFile {
		fmt.Fprintf(&b, "// The policies of %s, as the console loaded them.\n\n%s\n\n", policies.file, strings.TrimSpace(policies.src))
	}
	b.WriteString(scenarioCode(scn, r.Until))
	fmt.Fprintf(&b, "policy := %s\n", policy)
	fmt.Fprintf(&b, "run := lab.Run(scn, policy, %d)\n", r.Seed)
	fmt.Fprintf(&b, "fmt.Printf(\"at %g ms: %%d arrivals, %%d completed, %%d shed, %%d unfinished\\n\", run.Cohort, run.Completed, run.Shed, run.Unfinished)\n", r.Until)
	return b.String(), nil
}

// plainModel refuses a scenario the cell's builder calls cannot express:
// the console's scenarios differ from the specification's model only in
// name, rate, speeds and events.
func plainModel(scn engine.Scenario) error {
	base := engine.NewScenario(scn.Name)
	base.Rate, base.Speeds, base.Events = scn.Rate, scn.Speeds, scn.Events
	if !reflect.DeepEqual(base, scn) {
		return fmt.Errorf("the scenario changes more than rate, speeds and events, which a Go cell of the console does not write")
	}
	return nil
}

// scenarioCode builds the scenario with lab: a run from 0 to until with no
// warm-up, so that lab.Run measures every request, and each event due by
// then (later ones cannot change the run).
func scenarioCode(scn engine.Scenario, until float64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "scn := lab.NewScenario(%q).Rate(%s).Speeds(%s).\n", scn.Name, num(scn.Rate), nums(scn.Speeds))
	fmt.Fprintf(&b, "\tWarmup(0).Measure(%s)", seconds(until))
	for _, e := range scn.Events {
		if e.At <= until {
			fmt.Fprintf(&b, ".\n\tAt(%s, %s)", seconds(e.At), eventCode(e))
		}
	}
	b.WriteString("\n")
	return b.String()
}

func eventCode(e engine.Event) string {
	switch e.Kind {
	case engine.EventSetRate:
		return fmt.Sprintf("lab.SetRate(%s)", num(e.Value))
	case engine.EventScaleRate:
		return fmt.Sprintf("lab.ScaleRate(%s)", num(e.Value))
	case engine.EventSlow:
		return fmt.Sprintf("lab.Slow(%d, %s)", e.Replica, num(e.Value))
	case engine.EventRestore:
		return fmt.Sprintf("lab.Restore(%d)", e.Replica)
	case engine.EventFail:
		return fmt.Sprintf("lab.Fail(%d)", e.Replica)
	}
	return fmt.Sprintf("lab.Recover(%d)", e.Replica)
}

// policyCode is the expression of the session's routing, and whether it
// uses a policy of the policies file.
func policyCode(r *engine.RecordedSession, policies *policySet) (string, bool, error) {
	usesFile := false
	ref := func(name string) (string, error) {
		p, err := policies.lookup(name)
		if err != nil {
			return "", err
		}
		switch {
		case !p.fromFile():
			return fmt.Sprintf("lab.Builtin(%q)", name), nil
		case p.ident == "":
			return "", fmt.Errorf("the policy %q of %s is held by no top-level variable, which the Go cell would name it by: declare it as var NAME = … in the file", name, policies.file)
		}
		usesFile = true
		return p.ident, nil
	}
	first, err := ref(r.Policy)
	if err != nil || len(r.Switches) == 0 {
		return first, usesFile, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "engine.Switching(%s, []engine.PolicySwitch{\n", first)
	for _, sw := range r.Switches {
		p, err := ref(sw.Policy)
		if err != nil {
			return "", false, err
		}
		fmt.Fprintf(&b, "\t{At: %s, Policy: %s},\n", num(sw.At), p)
	}
	b.WriteString("})")
	return b.String(), usesFile, nil
}

// seconds writes a time in ms as seconds, as lab takes times (lab puts
// them back on the 0.5 ms grid exactly).
func seconds(ms float64) string { return num(ms / 1000) }

// num writes a float as Go reads it back exactly.
func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func nums(xs []float64) string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = num(x)
	}
	return strings.Join(out, ", ")
}
