package console

import (
	"context"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/routelab/routelab/dsl"
	"github.com/routelab/routelab/dsl/symbols"
	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/plot"
)

// The policies file (--policies FILE.go) is loaded as routelab compare,
// sweep and study load theirs (symbols.LoadPolicyFile): a Go script as
// `routelab exec` runs it — a package main file with func main, or
// declarations and statements as a notebook cell holds them, lab without
// an import — run once, when the console starts. Its policies join the
// picker under their own names, after the built-ins: its top-level
// variables of type lab.PolicySpec in declaration order, then the policies
// it makes with lab.Policy, lab.Picker or lab.Stateful that no such
// variable holds, in the order made:
//
//	var queueEWMA = lab.Policy("queue-x-ewma", func(r lab.Replica) float64 {
//		return float64(r.Outstanding+1) * r.ServiceEWMA
//	})
//	eager := lab.Adaptive(lab.C(0.9))
//
// The Go cell the console saves of a session that used one of them
// carries the file's source and names the policy by its variable.

// policy is one entry of the picker.
type policy struct {
	Name   string `json:"name"`
	Color  string `json:"color"`
	About  string `json:"about"`
	Source string `json:"source"` // builtinSource or the policies file's name
	spec   engine.PolicySpec
	ident  string // the file's variable holding it; "" for a built-in or when none does
}

// builtinSource is the Source of a built-in policy.
const builtinSource = "built-in"

// fromFile tells a policy of the policies file from a built-in.
func (p policy) fromFile() bool { return p.Source != builtinSource }

// policySet is what the picker offers: the built-ins, then the file's.
type policySet struct {
	list []policy
	file string // the policies file, "" when none
	src  string // its source as a cell holds it, for Go cells
	// problem says why the file's policies are missing (shown on every
	// page and on stderr); "" when none.
	problem string
	loaded  *symbols.PolicyFile // runs the file's policies; nil without them
}

// loadPolicies offers the built-ins and, when path is set, the policies of
// the file. A file that fails leaves the built-ins and a problem to show;
// it is not an error, so the console still starts. Output of the file goes
// to stderr.
func loadPolicies(ctx context.Context, path string, stderr io.Writer) *policySet {
	set := &policySet{file: path}
	palette := plot.DefaultPalette()
	for _, name := range engine.PolicyNames() {
		spec, _ := engine.PolicyByName(name) // the registry's own names
		set.list = append(set.list, policy{Name: name, Color: palette.Color(name), About: engine.PolicyAbout(name), Source: builtinSource, spec: spec})
	}
	if path == "" {
		return set
	}
	f, err := symbols.LoadPolicyFile(ctx, path, dsl.Options{Env: os.Environ(), Args: []string{path}}, stderr)
	if err != nil {
		set.problem = err.Error()
		return set
	}
	set.adopt(f)
	return set
}

// adopt adds the file's policies; the loader has refused names the
// built-ins have.
func (set *policySet) adopt(f *symbols.PolicyFile) {
	set.loaded, set.src = f, cellSource(f.Source)
	palette := plot.DefaultPalette()
	for _, p := range f.Policies {
		set.list = append(set.list, policy{Name: p.Spec.Name, Color: palette.Color(p.Spec.Name), About: p.Origin(), Source: filepath.Base(f.Path), spec: p.Spec, ident: p.Var})
	}
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
	if set.loaded != nil {
		set.loaded.Close()
	}
}

// cellSource is a policies file's source as a notebook cell holds it: a
// package main file without its package clause (a cell runs a func main
// after its statements, as a script runs it at its end), so that a Go cell
// can carry it before its own statements.
func cellSource(src string) string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.PackageClauseOnly)
	if err != nil {
		return src // no package clause: cell-like already
	}
	file := fset.File(f.Package)
	return src[:file.Offset(f.Package)] + src[file.Offset(f.Name.End()):]
}
