package symbols_test

import (
	"reflect"
	"slices"
	"sort"
	"testing"

	"github.com/routelab/routelab/dsl/symbols"
	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/lab"
)

// Every built-in policy of engine's registry has a description and a lab
// function that makes it with its defaults (found by calling every lab
// function that takes no argument but options and returns a PolicySpec),
// and every such function makes a registered policy: the registry and the
// cells' vocabulary cannot drift apart. Likewise every built-in scenario
// has a description and is reachable as lab.Named(name).
func TestRegistryHasLabFunctions(t *testing.T) {
	specType := reflect.TypeFor[lab.PolicySpec]()
	made := map[string]string{} // policy name → lab function
	for name, v := range symbols.Symbols()[symbols.LabPath+"/lab"] {
		ft := v.Type()
		if v.Kind() != reflect.Func || ft.NumOut() != 1 || ft.Out(0) != specType || ft.NumIn() > 1 || (ft.NumIn() == 1 && !ft.IsVariadic()) {
			continue
		}
		spec, ok := callBare(v)
		if !ok {
			continue // it needs arguments (lab.Scorers)
		}
		if prev, ok := made[spec.Name]; ok {
			t.Errorf("lab.%s and lab.%s both make %q", prev, name, spec.Name)
		}
		made[spec.Name] = name
		if _, err := engine.PolicyByName(spec.Name); err != nil {
			t.Errorf("lab.%s makes %q, which the registry does not list: %v", name, spec.Name, err)
		}
	}
	for _, e := range engine.BuiltinPolicies() {
		switch {
		case made[e.Name] == "":
			t.Errorf("registry policy %q has no lab function", e.Name)
		case made[e.Name] != e.LabFunc:
			t.Errorf("registry policy %q is made by lab.%s, but its record names lab.%s", e.Name, made[e.Name], e.LabFunc)
		}
		if e.About == "" {
			t.Errorf("registry policy %q has no description", e.Name)
		}
		if !slices.Contains(engine.PolicyFamilies(), e.Family) {
			t.Errorf("registry policy %q has family %q, not one of %v", e.Name, e.Family, engine.PolicyFamilies())
		}
		if e.Style.Colour == 0 {
			t.Errorf("registry policy %q has no style (plot.TestRegistryStyles checks the styles)", e.Name)
		}
		if spec := e.Spec(); spec.Name != e.Name {
			t.Errorf("registry policy %q's constructor makes %q", e.Name, spec.Name)
		}
	}
	labSyms := symbols.Symbols()[symbols.LabPath+"/lab"]
	scenarioType := reflect.TypeFor[*lab.Scenario]()
	var scenarioNames []string
	for _, e := range engine.BuiltinScenarios() {
		scenarioNames = append(scenarioNames, e.Name)
		if e.About == "" || e.About != engine.ScenarioAbout(e.Name) {
			t.Errorf("scenario %q has description %q (ScenarioAbout: %q)", e.Name, e.About, engine.ScenarioAbout(e.Name))
		}
		if !slices.Contains(engine.ScenarioFamilies(), e.Family) {
			t.Errorf("scenario %q has family %q, not one of %v", e.Name, e.Family, engine.ScenarioFamilies())
		}
		if e.Rate <= 0 || e.Rate != engine.ScenarioRate(e.Name) {
			t.Errorf("scenario %q has rate %g (ScenarioRate: %g)", e.Name, e.Rate, engine.ScenarioRate(e.Name))
		}
		if scn, _, err := lab.Named(e.Name).Engine(); err != nil || scn.Name != e.Name {
			t.Errorf("lab.Named(%q) is %q (%v)", e.Name, scn.Name, err)
		}
		v, ok := labSyms[e.LabFunc]
		if !ok || v.Kind() != reflect.Func || v.Type().NumIn() != 0 || v.Type().NumOut() != 1 || v.Type().Out(0) != scenarioType {
			t.Errorf("scenario %q names lab.%q, which is not a lab function making a *lab.Scenario", e.Name, e.LabFunc)
			continue
		}
		if scn, _, err := v.Call(nil)[0].Interface().(*lab.Scenario).Engine(); err != nil || scn.Name != e.Name {
			t.Errorf("lab.%s() is %q (%v), want the registry's %q", e.LabFunc, scn.Name, err, e.Name)
		}
	}
	if !slices.Equal(scenarioNames, engine.ScenarioNames()) {
		t.Errorf("the registry's scenarios %v are not ScenarioNames %v", scenarioNames, engine.ScenarioNames())
	}
	if len(made) < len(engine.PolicyNames()) {
		names := make([]string, 0, len(made))
		for n := range made {
			names = append(names, n)
		}
		sort.Strings(names)
		t.Errorf("lab functions make %v", names)
	}
}

// callBare calls a lab function with no arguments; false when it refuses to
// be called so.
func callBare(v reflect.Value) (spec lab.PolicySpec, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	var out []reflect.Value
	if v.Type().IsVariadic() {
		out = v.CallSlice([]reflect.Value{reflect.MakeSlice(v.Type().In(0), 0, 0)})
	} else {
		out = v.Call(nil)
	}
	return out[0].Interface().(lab.PolicySpec), true
}
