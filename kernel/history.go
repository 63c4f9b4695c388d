package kernel

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

const (
	// maxHistory bounds the cells a kernel remembers (oldest dropped first).
	maxHistory = 10000
	// maxHistoryOutput bounds the text kept per remembered output.
	maxHistoryOutput = 64 << 10
)

// history is this kernel's own record of store_history cells. It has one
// session (numbered 1); the protocol's session 0 also means "this session".
type history struct {
	session int
	entries []historyEntry
}

type historyEntry struct {
	line   int
	input  string
	output *string
}

func (h *history) add(line int, input string, output *string) {
	if output != nil && len(*output) > maxHistoryOutput {
		t := (*output)[:maxHistoryOutput] + "\n…(truncated)"
		output = &t
	}
	if len(h.entries) == maxHistory {
		copy(h.entries, h.entries[1:])
		h.entries = h.entries[:maxHistory-1]
	}
	h.entries = append(h.entries, historyEntry{line, input, output})
}

type historyRequest struct {
	Output         bool    `json:"output"`
	Raw            bool    `json:"raw"`
	HistAccessType string  `json:"hist_access_type"`
	Session        *int    `json:"session"`
	Start          *int    `json:"start"`
	Stop           *int    `json:"stop"`
	N              *int    `json:"n"`
	Pattern        *string `json:"pattern"`
	Unique         bool    `json:"unique"`
}

// query answers a history request with [session, line, input] triples, or
// [session, line, [input, output]] when output is asked for.
func (h *history) query(q historyRequest) ([]any, error) {
	var picked []historyEntry
	switch q.HistAccessType {
	case "tail":
		picked = lastN(h.entries, q.N, 10)
	case "range":
		picked = h.rangeOf(q)
	case "search":
		var err error
		if picked, err = h.search(q); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("hist_access_type %q is not one of tail, range, search", q.HistAccessType)
	}
	out := make([]any, 0, len(picked))
	for _, e := range picked {
		var item any = e.input
		if q.Output {
			item = []any{e.input, e.output}
		}
		out = append(out, []any{h.session, e.line, item})
	}
	return out, nil
}

// lastN returns the last n entries, def of them when n is absent and none
// when n is not positive.
func lastN(es []historyEntry, n *int, def int) []historyEntry {
	want := def
	if n != nil {
		want = *n
	}
	if want <= 0 {
		return nil
	}
	if want > len(es) {
		want = len(es)
	}
	return es[len(es)-want:]
}

// rangeOf returns lines start <= line < stop of this session; a missing or
// non-positive stop means "to the end", as in IPython.
func (h *history) rangeOf(q historyRequest) []historyEntry {
	if q.Session != nil && *q.Session != 0 && *q.Session != h.session {
		return nil // earlier sessions are not kept
	}
	start, stop := 1, 0
	if q.Start != nil {
		start = *q.Start
	}
	if q.Stop != nil {
		stop = *q.Stop
	}
	var out []historyEntry
	for _, e := range h.entries {
		if e.line >= start && (stop <= 0 || e.line < stop) {
			out = append(out, e)
		}
	}
	return out
}

// search matches inputs against a glob pattern (* ? [...], whole input, as
// IPython's history search); unique keeps each input's latest occurrence and
// n keeps the last n matches.
func (h *history) search(q historyRequest) ([]historyEntry, error) {
	pattern := "*"
	if q.Pattern != nil {
		pattern = *q.Pattern
	}
	re, err := globRegexp(pattern)
	if err != nil {
		return nil, err
	}
	var out []historyEntry
	seen := map[string]bool{}
	for i := len(h.entries) - 1; i >= 0; i-- {
		e := h.entries[i]
		if !re.MatchString(e.input) || (q.Unique && seen[e.input]) {
			continue
		}
		seen[e.input] = true
		out = append(out, e)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	if q.N != nil && *q.N > 0 {
		out = lastN(out, q.N, 0)
	}
	return out, nil
}

// globRegexp translates a glob into an anchored regular expression in which
// * and ? also match newlines.
func globRegexp(glob string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString(`(?s)\A`)
	rs := []rune(glob)
	for i := 0; i < len(rs); i++ {
		switch c := rs[i]; c {
		case '*':
			b.WriteString(`.*`)
		case '?':
			b.WriteString(`.`)
		case '[':
			end := slices.Index(rs[i+1:], ']')
			if end < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := string(rs[i+1 : i+1+end])
			if strings.HasPrefix(class, "^") || strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += end + 1
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString(`\z`)
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, fmt.Errorf("history pattern %q is not a valid glob: %v", glob, err)
	}
	return re, nil
}

func (k *kernel) historyRequest(r request) {
	var q historyRequest
	if !r.decode(&q) {
		return
	}
	items, err := k.history.query(q)
	if err != nil {
		r.reply(errorReply("BadRequest", err.Error()))
		return
	}
	r.reply(map[string]any{"status": "ok", "history": items})
}
