package console

import (
	"context"
	"errors"
	"fmt"
	"go/scanner"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/routelab/routelab/display"
	"github.com/routelab/routelab/dsl"
	"github.com/routelab/routelab/dsl/symbols"
	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/plot"
)

// The policies file (--policies FILE.go) is Go as a notebook cell holds it:
// declarations and statements, lab available without an import, no package
// clause. It runs once, through the dsl, when the console starts. Every
// top-level variable of type lab.PolicySpec it declares is offered in the
// policy picker under the policy's own name, after the built-ins, in the
// order declared:
//
//	var queueEWMA = lab.Policy("queue-x-ewma", func(r lab.Replica) float64 {
//		return float64(r.Outstanding+1) * r.ServiceEWMA
//	})
//	eager := lab.Adaptive(lab.C(0.9))
//
// The same file runs unchanged in a notebook or with `routelab exec`, and
// the console pastes it into the Go cell it saves of a session that used
// one of its policies.

// policy is one entry of the picker.
type policy struct {
	Name   string `json:"name"`
	Color  string `json:"color"`
	About  string `json:"about"`
	Source string `json:"source"` // "built-in" or the policies file's name
	spec   engine.PolicySpec
	ident  string // the file's variable holding it; "" for a built-in
}

// policySet is what the picker offers: the built-ins, then the file's.
type policySet struct {
	list []policy
	file string // the policies file, "" when none
	src  string // its source, for Go cells
	// problem says why the file's policies are missing or partly
	// missing (shown on every page and on stderr); "" when none.
	problem string
	sess    *dsl.Session // runs the file's policies; nil without one
}

// loadPolicies offers the built-ins and, when path is set, the policies the
// file declares. A file that fails leaves the built-ins and a problem to
// show; it is not an error, so the console still starts. Output of the file
// goes to stderr.
func loadPolicies(ctx context.Context, path string, stderr io.Writer) *policySet {
	set := &policySet{file: path}
	palette := plot.DefaultPalette()
	for _, name := range engine.PolicyNames() {
		spec, _ := engine.PolicyByName(name) // the registry's own names
		set.list = append(set.list, policy{Name: name, Color: palette.Color(name), About: engine.PolicyAbout(name), Source: "built-in", spec: spec})
	}
	if path == "" {
		return set
	}
	if err := set.loadFile(ctx, path, stderr); err != nil {
		set.problem = err.Error()
		return set
	}
	return set
}

// loadFile runs the file and adds its policies.
func (set *policySet) loadFile(ctx context.Context, path string, stderr io.Writer) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	set.src = string(data)
	if hasPackageClause(set.src) {
		return fmt.Errorf("%s starts with a package clause: write the policies as a notebook cell holds them (declarations and statements, lab without an import), with no package clause or func main", path)
	}
	sess, err := symbols.NewSession(dsl.Options{Env: os.Environ(), Args: []string{path}})
	if err != nil {
		return err
	}
	if err := sess.RunScript(ctx, set.src, stderr, stderr); err != nil {
		sess.Close()
		var de *display.Error
		if errors.As(err, &de) {
			return fmt.Errorf("%s: %s", path, strings.Join(de.Traceback, "\n"))
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	set.sess = sess
	return set.adopt(sess.Variables())
}

// adopt adds the lab.PolicySpec variables; a name taken already is a
// problem, reported with the others, and the policy is left out.
func (set *policySet) adopt(vars []dsl.Variable) error {
	palette := plot.DefaultPalette()
	var problems []string
	found := 0
	for _, v := range vars {
		spec, ok := v.Value.Interface().(engine.PolicySpec)
		if !ok {
			continue
		}
		found++
		if spec.New == nil || spec.Name == "" {
			problems = append(problems, fmt.Sprintf("%s: variable %s is an empty lab.PolicySpec (make it with lab.Policy, lab.Picker, lab.Stateful or a built-in)", set.file, v.Name))
			continue
		}
		if _, err := set.lookup(spec.Name); err == nil {
			problems = append(problems, fmt.Sprintf("%s: variable %s names its policy %q, which the picker has already; give it another name", set.file, v.Name, spec.Name))
			continue
		}
		set.list = append(set.list, policy{Name: spec.Name, Color: palette.Color(spec.Name), About: "variable " + v.Name, Source: filepath.Base(set.file), spec: spec, ident: v.Name})
	}
	if found == 0 {
		problems = append(problems, fmt.Sprintf("%s declares no top-level variable of type lab.PolicySpec, such as var mine = lab.Policy(\"mine\", cost): the picker offers the built-ins only", set.file))
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "\n"))
	}
	return nil
}

// lookup finds a policy by name.
func (set *policySet) lookup(name string) (policy, error) {
	for _, p := range set.list {
		if p.Name == name {
			return p, nil
		}
	}
	return policy{}, field("policy", name, "one of "+strings.Join(set.names(), ", "))
}

func (set *policySet) names() []string {
	out := make([]string, len(set.list))
	for i, p := range set.list {
		out[i] = p.Name
	}
	return out
}

// close ends the file's dsl session.
func (set *policySet) close() {
	if set.sess != nil {
		set.sess.Close()
	}
}

// hasPackageClause tells whether Go source starts with a package clause
// (after comments).
func hasPackageClause(src string) bool {
	fset := token.NewFileSet()
	var s scanner.Scanner
	s.Init(fset.AddFile("", fset.Base(), len(src)), []byte(src), nil, 0)
	_, tok, _ := s.Scan()
	return tok == token.PACKAGE
}
