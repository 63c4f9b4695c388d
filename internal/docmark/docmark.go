// Package docmark finds and rewrites the generated parts of the project's
// Markdown. A generated part sits between two HTML comments, which Markdown
// renders as nothing:
//
//	<!-- gen model.constants -->
//	| constant | value |
//	…
//	<!-- /gen -->
//
// or inline, inside a sentence: it selects c = <!-- gen study.selected -->0.5<!-- /gen -->.
// A part whose text starts with a newline is a block: its new text goes on
// lines of its own. The name says which generator owns the part: the text
// before its first dot (model, study, cli, validation, …).
//
// The package depends on nothing but the standard library, so that any
// package's tests can check the parts they own.
package docmark

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

const closeMark = "<!-- /gen -->"

var openMark = regexp.MustCompile(`<!-- gen ([^ ]*) -->`)

// validName is a part's name: lower-case words joined by dots or hyphens,
// with at least one dot.
var validName = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*)+$`)

// Part is one generated part of a document.
type Part struct {
	Name string
	Line int // 1-based line of the opening comment
	// Start and End delimit the part's text in the document (after the
	// opening comment, before the closing one).
	Start, End int
	Text       string
}

// Block tells whether the part takes whole lines.
func (p Part) Block() bool { return strings.HasPrefix(p.Text, "\n") }

// Owner is the name's first component: the generator that writes the part.
func (p Part) Owner() string { owner, _, _ := strings.Cut(p.Name, "."); return owner }

// Parts returns the generated parts of doc in order. A part left open, a
// part opened inside another, a closing comment without an opening one and
// a malformed name are errors naming the line.
func Parts(doc string) ([]Part, error) {
	var parts []Part
	pos := 0
	for {
		loc := openMark.FindStringSubmatchIndex(doc[pos:])
		end := strings.Index(doc[pos:], closeMark)
		if loc == nil {
			if end >= 0 {
				return nil, fmt.Errorf("line %d: %s closes no part", lineOf(doc, pos+end), closeMark)
			}
			return parts, nil
		}
		if end >= 0 && end < loc[0] {
			return nil, fmt.Errorf("line %d: %s closes no part", lineOf(doc, pos+end), closeMark)
		}
		name := doc[pos+loc[2] : pos+loc[3]]
		line := lineOf(doc, pos+loc[0])
		if !validName.MatchString(name) {
			return nil, fmt.Errorf("line %d: %q is not a part name (want lower-case words joined by dots, such as model.constants)", line, name)
		}
		start := pos + loc[1]
		rel := strings.Index(doc[start:], closeMark)
		if rel < 0 {
			return nil, fmt.Errorf("line %d: part %s is never closed with %s", line, name, closeMark)
		}
		if next := openMark.FindStringIndex(doc[start : start+rel]); next != nil {
			return nil, fmt.Errorf("line %d: a part opens inside part %s (line %d)", lineOf(doc, start+next[0]), name, line)
		}
		parts = append(parts, Part{Name: name, Line: line, Start: start, End: start + rel, Text: doc[start : start+rel]})
		pos = start + rel + len(closeMark)
	}
}

func lineOf(doc string, offset int) int { return strings.Count(doc[:offset], "\n") + 1 }

// Rewrite returns doc with the text of every part whose owner is owner
// replaced by render(name). Blocks get the rendered text on lines of their
// own, inline parts get it as it is (an inline part must render on one
// line).
func Rewrite(doc, owner string, render func(name string) (string, error)) (string, error) {
	parts, err := Parts(doc)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	last := 0
	for _, p := range parts {
		if p.Owner() != owner {
			continue
		}
		text, err := render(p.Name)
		if err != nil {
			return "", fmt.Errorf("line %d: %s: %w", p.Line, p.Name, err)
		}
		if p.Block() {
			text = "\n" + strings.Trim(text, "\n") + "\n"
		} else if strings.Contains(text, "\n") {
			return "", fmt.Errorf("line %d: %s is inline but renders on several lines", p.Line, p.Name)
		}
		b.WriteString(doc[last:p.Start])
		b.WriteString(text)
		last = p.End
	}
	b.WriteString(doc[last:])
	return b.String(), nil
}

// Drift is a generated part whose text differs from what its generator
// renders now.
type Drift struct {
	File, Name string
	Line       int
	Have, Want string
}

func (d Drift) Error() string {
	return fmt.Sprintf("%s:%d: %s differs from what the code gives:\n--- the document has\n%s\n--- the code gives\n%s", d.File, d.Line, d.Name, strings.Trim(d.Have, "\n"), strings.Trim(d.Want, "\n"))
}

// Check compares the parts of doc owned by owner with what render gives
// now, and reports each that differs. file names the document in the
// reports.
func Check(file, doc, owner string, render func(name string) (string, error)) ([]Drift, error) {
	want, err := Rewrite(doc, owner, render)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	have, _ := Parts(doc)
	now, err := Parts(want)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	var drifts []Drift
	for i, p := range have {
		if p.Owner() == owner && p.Text != now[i].Text {
			drifts = append(drifts, Drift{File: file, Name: p.Name, Line: p.Line, Have: p.Text, Want: now[i].Text})
		}
	}
	return drifts, nil
}

// Names lists the names of the parts of doc owned by owner, each once, in
// order of first appearance.
func Names(doc, owner string) ([]string, error) {
	parts, err := Parts(doc)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, p := range parts {
		if p.Owner() == owner && !slices.Contains(names, p.Name) {
			names = append(names, p.Name)
		}
	}
	return names, nil
}

// Strip returns doc without its generated parts (markers and text), for
// checks that read only the hand-written prose.
func Strip(doc string) (string, error) {
	parts, err := Parts(doc)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	last := 0
	for _, p := range parts {
		open := strings.LastIndex(doc[:p.Start], "<!-- gen ")
		b.WriteString(doc[last:open])
		last = p.End + len(closeMark)
	}
	b.WriteString(doc[last:])
	return b.String(), nil
}
