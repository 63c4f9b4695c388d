package main

import (
	"context"
	"io"
	"strings"

	"github.com/routelab/routelab/dsl/symbols"
	"github.com/routelab/routelab/engine"
)

// policySet resolves the entries of --policies: built-in names, and policy
// files (FILE.go) whose policies join at the file's place, as
// symbols.LoadPolicyFile finds them (the file's top-level lab.PolicySpec
// variables, then the policies it makes that no variable holds). Each file
// runs once, in its own dsl session, which stays open while its policies
// run. Close ends the sessions.
type policySet struct {
	files []*symbols.PolicyFile
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
				return nil, engine.UnknownName("policy", entry, engine.PolicyNames(), "or a policy file FILE.go")
			}
			out = append(out, p)
			continue
		}
		f, err := symbols.LoadPolicyFile(ctx, entry, sessionOptions([]string{entry}), stderr)
		if err != nil {
			return nil, err
		}
		s.files = append(s.files, f)
		out = append(out, f.Specs()...)
	}
	return out, nil
}

// source is the sha256 of the policy file the named policy comes from, ""
// for a built-in (the loader refuses a file's policy named like one).
func (s *policySet) source(name string) string {
	for _, f := range s.files {
		for _, p := range f.Policies {
			if p.Spec.Name == name {
				return f.Sum
			}
		}
	}
	return ""
}

// Close ends the policy files' sessions.
func (s *policySet) Close() {
	for _, f := range s.files {
		f.Close()
	}
	s.files = nil
}
