package dsl

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Help the way notebook users ask for it: lab.Compare?, ?lab.Compare,
// lab.Compare?? and help(lab.Compare) show what inspection (Shift-Tab)
// shows. None of them is Go, so a cell that is exactly one of them is
// answered before it is checked; help is taken as Go when the session
// declares a help of its own.

var helpForms = sync.OnceValue(func() *regexp.Regexp {
	const name = `([\p{L}_][\p{L}\p{N}_]*(?:\.[\p{L}_][\p{L}\p{N}_]*)*)`
	return regexp.MustCompile(`^(?:\?{1,2}\s*` + name + `|` + name + `\s*\?{1,2}|help\(\s*` + name + `\s*\))$`)
})

// helpTarget is the name a help cell asks about, or "".
func (s *Session) helpTarget(code string) string {
	m := helpForms().FindStringSubmatch(withoutLineComments(code))
	if m == nil {
		return ""
	}
	if m[3] != "" && s.syms.get("help") != nil {
		return ""
	}
	return m[1] + m[2] + m[3]
}

// help answers a help cell: the inspection of the name, or an error that
// says the name is unknown.
func (s *Session) help(r *cellRun, name string) error {
	b, ok := s.Inspect(name, len(name))
	if !ok {
		return newError(CompileError, &cellError{Line: 1, Col: 1, Msg: s.hint(fmt.Sprintf("undefined: %s", name))}, nil, r.code)
	}
	s.show(b)
	return nil
}

// withoutLineComments is code without its comment lines, trimmed.
func withoutLineComments(code string) string {
	var keep []string
	for _, l := range strings.Split(code, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "//") {
			keep = append(keep, l)
		}
	}
	return strings.TrimSpace(strings.Join(keep, "\n"))
}
