package symbols_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/routelab/routelab/dsl"
	"github.com/routelab/routelab/dsl/symbols"
)

// policyFileCost is a cost function the policy files below share.
const policyFileCost = "func cost(r lab.Replica) float64 { return float64(r.Outstanding+1) * r.ServiceEWMA }\n"

// policyFileCases are policy files and what LoadPolicyFile finds in them:
// the policies as name=variable in order, or the error (% stands for the
// file's path).
var policyFileCases = []struct {
	name, src string
	want      string // policies, or the error's text
	printed   string // what the file prints, on stderr
}{
	{name: "variables", src: `var queueEWMA = lab.Policy("queue-x-ewma", func(r lab.Replica) float64 {
	return float64(r.Outstanding+1) * r.ServiceEWMA
})

eager := lab.Adaptive(lab.C(0.9))
threshold := 3
`, want: "queue-x-ewma=queueEWMA adaptive(c=0.9)=eager"},
	{name: "made", src: policyFileCost + `policies := []lab.PolicySpec{
	lab.Picker("first-eligible", func(v *lab.View) int { return v.Eligible[0].ID }),
	lab.Policy("cheapest", cost),
}
fmt.Println(len(policies), "policies")
`, want: "first-eligible= cheapest=", printed: "2 policies\n"},
	{name: "variables then made", src: policyFileCost + `var a = lab.Policy("a", cost)
others := []lab.PolicySpec{lab.Policy("b", cost), a}
c := lab.Stateful("c", func() lab.Hooks {
	return lab.Hooks{Pick: func(v *lab.View) int { return v.Eligible[0].ID }}
})
`, want: "a=a c=c b="},
	{name: "made inside lab.Compare", src: policyFileCost + `res := lab.Compare(lab.Steady().Seeds(1).Warmup(0).Measure(1), lab.LeastQueue(), lab.Policy("in-compare", cost))
fmt.Println(res.Policies[1].Name)
`, want: "in-compare=", printed: "in-compare\n"},
	{name: "helper using math without import", src: `// sqrtCost uses math without importing it, as a cell may.
func sqrtCost(r lab.Replica) float64 { return math.Sqrt(float64(r.Outstanding+1)) * r.ServiceEWMA }

var sqrtQueue = lab.Policy("sqrt-queue", sqrtCost)
`, want: "sqrt-queue=sqrtQueue"},
	{name: "package main", src: `// A program: its main makes a policy no variable holds.
package main

import (
	"fmt"

	"github.com/routelab/routelab/lab"
)

var residualWait = lab.Policy("residual-wait", func(r lab.Replica) float64 {
	return (float64(r.Waiting) + 0.5*float64(r.InFlight) + 1) * r.ServiceEWMA
})

func main() {
	idle := lab.Picker("idle-first", func(v *lab.View) int { return v.Eligible[0].ID })
	fmt.Println("made", idle.Name)
}
`, want: "residual-wait=residualWait idle-first=", printed: "made idle-first\n"},

	{name: "fails", src: `var w = lab.Policy("w", nil)` + "\n",
		want: "policy file %: ValueError: 1:1: lab.Policy: cost: nil is not allowed (want a function)"},
	{name: "exits", src: "os.Exit(3)\n", want: "policy file %: exit status 3"},
	{name: "no policy", src: "x := 1\nfmt.Println(x)\n", printed: "1\n",
		want: `policy file % makes no policy: declare a top-level variable of type lab.PolicySpec, such as var mine = lab.Policy("mine", cost), or make one with lab.Policy, lab.Picker or lab.Stateful`},
	{name: "empty variable", src: "var e lab.PolicySpec\n",
		want: "policy file %: variable e is an empty lab.PolicySpec (make it with lab.Policy, lab.Picker, lab.Stateful or a built-in)"},
	{name: "two variables, one name", src: policyFileCost + "a := lab.Policy(\"twice\", cost)\nb := a\n",
		want: `policy file %: two policies are named "twice" (variable a and variable b): give each its own name`},
	{name: "two made, one name", src: policyFileCost + "ps := []lab.PolicySpec{lab.Policy(\"twice\", cost), lab.Picker(\"twice\", func(v *lab.View) int { return v.Eligible[0].ID })}\n",
		want: `policy file %: two policies are named "twice" (made with lab.Policy and made with lab.Picker): give each its own name`},
	{name: "variable named like a built-in", src: "var mine = lab.Builtin(\"p2c\")\n",
		want: `policy file %: the policy "p2c" (variable mine) is named like a built-in policy: give it another name`},
	{name: "made named like a built-in", src: policyFileCost + "_ = lab.Policy(\"adaptive\", cost)\n",
		want: `policy file %: the policy "adaptive" (made with lab.Policy) is named like a built-in policy: give it another name`},
}

// One loader for --policies FILE.go: the policies a file declares and
// makes, in the documented order, and one error per way a file can fail,
// naming the file.
func TestLoadPolicyFile(t *testing.T) {
	for _, c := range policyFileCases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "mine.go")
			if err := os.WriteFile(path, []byte(c.src), 0o644); err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			f, err := symbols.LoadPolicyFile(context.Background(), path, dsl.Options{Args: []string{path}}, &stderr)
			if stderr.String() != c.printed {
				t.Errorf("stderr %q, want %q", stderr.String(), c.printed)
			}
			if strings.HasPrefix(c.want, "policy file ") {
				if want := strings.ReplaceAll(c.want, "%", path); f != nil || err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("loaded %v, error %v; want the error %q", f != nil, err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if got := policyList(f); got != c.want {
				t.Errorf("policies %s, want %s", got, c.want)
			}
			if sum := sha256.Sum256([]byte(c.src)); f.Source != c.src || f.Sum != hex.EncodeToString(sum[:]) {
				t.Errorf("source %q, sum %s", f.Source, f.Sum)
			}
		})
	}
}

// An unreadable file is an error naming it.
func TestLoadPolicyFileUnreadable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "absent.go")
	_, err := symbols.LoadPolicyFile(context.Background(), path, dsl.Options{}, &bytes.Buffer{})
	if want := "policy file: open " + path + ": no such file or directory"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}

// policyList writes a file's policies as name=variable in order.
func policyList(f *symbols.PolicyFile) string {
	var out []string
	for _, p := range f.Policies {
		out = append(out, p.Spec.Name+"="+p.Var)
	}
	return strings.Join(out, " ")
}
