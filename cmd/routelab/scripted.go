package main

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
	"github.com/routelab/routelab/dsl/symbols"
	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/lab"
)

// policySet resolves the entries of --policies: built-in names, and policy
// files (FILE.go) whose scripted policies join at the file's place, in the
// order the file makes them. A policy file is a Go script, as `routelab
// exec` runs it (a package main file or cell-like statements), whose
// policies are those it makes with lab.Policy, lab.Picker or lab.Stateful;
// it runs once, in its own dsl session, which stays open while its
// policies run. Close ends the sessions.
type policySet struct {
	files []*policyFile
}

// policyFile is a loaded policy file.
type policyFile struct {
	path string
	sum  string // sha256 of the source, hex
	sess *dsl.Session
	made []engine.PolicySpec
}

// isPolicyFile tells a policy file from a policy name.
func isPolicyFile(entry string) bool { return strings.HasSuffix(entry, ".go") }

// resolve returns the policies the entries name, loading policy files;
// what a file prints goes to stderr, so it cannot mix with the command's
// output.
func (s *policySet) resolve(ctx context.Context, entries []string, stderr io.Writer) ([]engine.PolicySpec, error) {
	var out []engine.PolicySpec
	for _, entry := range entries {
		entry = strings.TrimSpace(entry)
		if !isPolicyFile(entry) {
			p, err := engine.PolicyByName(entry)
			if err != nil {
				return nil, &engine.FieldError{Field: "policy", Value: entry, Allowed: "one of " + strings.Join(engine.PolicyNames(), ", ") + ", or a policy file FILE.go"}
			}
			out = append(out, p)
			continue
		}
		f, err := loadPolicyFile(ctx, entry, stderr)
		if f != nil {
			s.files = append(s.files, f)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, f.made...)
	}
	return out, nil
}

// source is the sha256 of the file that made the named scripted policy, ""
// for a built-in.
func (s *policySet) source(name string) string {
	for _, f := range s.files {
		for _, p := range f.made {
			if p.Name == name {
				return f.sum
			}
		}
	}
	return ""
}

// Close ends the policy files' sessions.
func (s *policySet) Close() {
	for _, f := range s.files {
		f.sess.Close()
	}
	s.files = nil
}

// loadPolicyFile runs a policy file and collects the policies it makes. A
// file that fails, or makes no policy, is an error naming it; the file is
// returned whenever its session was started, to be closed.
func loadPolicyFile(ctx context.Context, path string, stderr io.Writer) (*policyFile, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("policy file: %w", err)
	}
	sum := sha256.Sum256(src)
	f := &policyFile{path: path, sum: hex.EncodeToString(sum[:])}
	f.sess, err = symbols.NewPolicySession(sessionOptions([]string{path}), func(p lab.PolicySpec) { f.made = append(f.made, p) })
	if err != nil {
		return nil, err
	}
	if err := scriptError(path, f.sess.RunScript(ctx, string(src), stderr, stderr)); err != nil {
		return f, err
	}
	if len(f.made) == 0 {
		return f, fmt.Errorf("policy file %s makes no policy (want lab.Policy, lab.Picker or lab.Stateful calls, as in examples/custom-policy)", path)
	}
	return f, nil
}

// scriptError says why a policy file failed: its traceback, or its exit
// status.
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
