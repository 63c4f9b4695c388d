package symbols

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/dsl"
	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/lab"
)

// PolicyFile is a loaded policy file, the FILE.go of --policies in routelab
// compare, sweep, study and console: every command loads it here, so that
// a file means the same to all of them.
type PolicyFile struct {
	Path   string
	Source string
	Sum    string // sha256 of Source, hex
	// Session ran the file; its policies call back into it, so it stays
	// open while they run. Close ends it.
	Session  *dsl.Session
	Policies []FilePolicy
}

// FilePolicy is one policy of a policy file.
type FilePolicy struct {
	Spec lab.PolicySpec
	Var  string // the top-level variable that holds it; "" when none does
}

// LoadPolicyFile runs a policy file and returns its policies. The file is a
// Go script as `routelab exec` runs it: a package main file with a func
// main, or declarations and statements as a notebook cell holds them; lab
// needs no import. Its policies are, in this order:
//
//   - its top-level variables of type lab.PolicySpec, in declaration order
//     (built-ins with options count: eager := lab.Adaptive(lab.C(0.9)));
//   - then the policies it made with lab.Policy, lab.Picker or lab.Stateful
//     that no such variable holds, in the order made (inside func main, a
//     helper or a lab.Compare call, say).
//
// A made policy counts as held by a variable whose policy has its name: a
// spec's functions cannot be compared. What the file prints goes to stderr,
// so it cannot mix with a command's output. opts are the session's (the
// commands pass the environment, and the path as os.Args, as exec does).
//
// Each error names the file: it cannot be read; the script fails (its
// traceback) or exits with a non-zero status; it makes no policy; a
// variable holds an empty lab.PolicySpec; two of its policies (two
// variables, or two policies made) have one name; a policy has a built-in
// policy's name. On an error nothing stays open.
func LoadPolicyFile(ctx context.Context, path string, opts dsl.Options, stderr io.Writer) (*PolicyFile, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("policy file: %w", err)
	}
	var made []lab.PolicySpec
	sess, err := NewPolicySession(opts, func(p lab.PolicySpec) { made = append(made, p) })
	if err != nil {
		return nil, fmt.Errorf("policy file %s: %w", path, err)
	}
	sum := sha256.Sum256(src)
	f := &PolicyFile{Path: path, Source: string(src), Sum: hex.EncodeToString(sum[:]), Session: sess}
	err = scriptError(path, sess.RunScript(ctx, f.Source, stderr, stderr))
	if err == nil {
		f.Policies, err = filePolicies(path, policyVariables(sess), made)
	}
	if err != nil {
		sess.Close()
		return nil, err
	}
	return f, nil
}

// Specs are the file's policies, in order.
func (f *PolicyFile) Specs() []lab.PolicySpec {
	out := make([]lab.PolicySpec, len(f.Policies))
	for i, p := range f.Policies {
		out[i] = p.Spec
	}
	return out
}

// Close ends the file's session.
func (f *PolicyFile) Close() { f.Session.Close() }

// Origin says where in its file a policy comes from, in error messages and
// for people: "variable mine", or "made with lab.Policy".
func (p FilePolicy) Origin() string {
	if p.Var != "" {
		return "variable " + p.Var
	}
	maker := map[engine.PolicyKind]string{engine.CostPolicy: "lab.Policy", engine.PickerPolicy: "lab.Picker", engine.StatefulPolicy: "lab.Stateful"}[p.Spec.Kind]
	return "made with " + maker
}

// scriptError says why a policy file failed: its exit status or its
// traceback.
func scriptError(path string, err error) error {
	var exit *dsl.ExitError
	if errors.As(err, &exit) {
		return fmt.Errorf("policy file %s: exit status %d", path, exit.Code)
	}
	var de *display.Error
	if errors.As(err, &de) {
		return fmt.Errorf("policy file %s: %s", path, strings.Join(de.Traceback, "\n"))
	}
	if err != nil {
		return fmt.Errorf("policy file %s: %w", path, err)
	}
	return nil
}

// policyVariables are the session's top-level variables of type
// lab.PolicySpec, in declaration order; other variables are the file's own
// business.
func policyVariables(sess *dsl.Session) []FilePolicy {
	var out []FilePolicy
	for _, v := range sess.Variables() {
		if spec, ok := v.Value.Interface().(lab.PolicySpec); ok {
			out = append(out, FilePolicy{Spec: spec, Var: v.Name})
		}
	}
	return out
}

// filePolicies applies LoadPolicyFile's rule to what the file declared and
// made, reporting every problem at once.
func filePolicies(path string, vars []FilePolicy, made []lab.PolicySpec) ([]FilePolicy, error) {
	if len(vars) == 0 && len(made) == 0 {
		return nil, fmt.Errorf("policy file %s makes no policy: declare a top-level variable of type lab.PolicySpec, "+
			"such as var mine = lab.Policy(\"mine\", cost), or make one with lab.Policy, lab.Picker or lab.Stateful, as examples/custom-policy does", path)
	}
	out, problems := nonEmpty(path, vars)
	problems = append(problems, sameNames(path, out)...)
	var all []FilePolicy
	held := map[string]bool{}
	for _, v := range out {
		held[v.Spec.Name] = true
	}
	for _, p := range made {
		all = append(all, FilePolicy{Spec: p})
		if !held[p.Name] {
			out = append(out, FilePolicy{Spec: p})
		}
	}
	problems = append(problems, sameNames(path, all)...)
	problems = append(problems, builtinNames(path, out)...)
	return out, errors.Join(problems...)
}

// nonEmpty drops the variables whose lab.PolicySpec is the zero value (var
// e lab.PolicySpec), which no command could run, as problems.
func nonEmpty(path string, vars []FilePolicy) ([]FilePolicy, []error) {
	var out []FilePolicy
	var problems []error
	for _, v := range vars {
		if v.Spec.Name == "" || v.Spec.New == nil {
			problems = append(problems, fmt.Errorf("policy file %s: variable %s is an empty lab.PolicySpec (make it with lab.Policy, lab.Picker, lab.Stateful or a built-in)", path, v.Var))
			continue
		}
		out = append(out, v)
	}
	return out, problems
}

// sameNames refuses two policies with one name: a comparison, a shard file
// and the console's picker tell policies by name.
func sameNames(path string, ps []FilePolicy) []error {
	var problems []error
	first := map[string]FilePolicy{}
	for _, p := range ps {
		if q, ok := first[p.Spec.Name]; ok {
			problems = append(problems, fmt.Errorf("policy file %s: two policies are named %q (%s and %s): give each its own name", path, p.Spec.Name, q.Origin(), p.Origin()))
			continue
		}
		first[p.Spec.Name] = p
	}
	return problems
}

// builtinNames refuses a policy named like a built-in, which --policies
// and the console's picker name too.
func builtinNames(path string, ps []FilePolicy) []error {
	builtin := map[string]bool{}
	for _, name := range engine.PolicyNames() {
		builtin[name] = true
	}
	var problems []error
	for _, p := range ps {
		if builtin[p.Spec.Name] {
			problems = append(problems, fmt.Errorf("policy file %s: the policy %q (%s) is named like a built-in policy: give it another name", path, p.Spec.Name, p.Origin()))
		}
	}
	return problems
}
