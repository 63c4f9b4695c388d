package main

import (
	"encoding/json"
	"fmt"
	"strings"
)

// A reader of the block YAML the manifests in deploy/ are written in, for
// their tests (the module takes no YAML dependency for a test): documents
// separated by ---, block mappings and sequences by indentation, comment
// lines, plain scalars, and flow sequences and quoted strings written as
// JSON. Anything else — anchors, block scalars, flow mappings, inline
// comments — is an error, so the manifests stay within what is checked.

type yamlLine struct {
	num    int // 1-based, for errors
	indent int
	text   string
}

// parseYAML returns the documents of src: maps, []any and strings.
func parseYAML(src string) ([]any, error) {
	var docs []any
	var lines []yamlLine
	flush := func() error {
		if len(lines) == 0 {
			return nil
		}
		v, next, err := parseNode(lines, 0)
		if err == nil && next < len(lines) {
			err = fmt.Errorf("line %d: unexpected indentation", lines[next].num)
		}
		docs, lines = append(docs, v), nil
		return err
	}
	for i, raw := range strings.Split(src, "\n") {
		text := strings.TrimRight(raw, " \t\r")
		trimmed := strings.TrimLeft(text, " ")
		switch {
		case trimmed == "" || strings.HasPrefix(trimmed, "#"):
		case text == "---":
			if err := flush(); err != nil {
				return nil, err
			}
		case strings.Contains(text, "\t"):
			return nil, fmt.Errorf("line %d: a tab", i+1)
		default:
			lines = append(lines, yamlLine{i + 1, len(text) - len(trimmed), trimmed})
		}
	}
	return docs, flush()
}

// parseNode parses the block starting at lines[i], a sequence or a mapping
// by its first line, and returns the index after it.
func parseNode(lines []yamlLine, i int) (any, int, error) {
	if lines[i].text == "-" || strings.HasPrefix(lines[i].text, "- ") {
		return parseSequence(lines, i)
	}
	return parseMapping(lines, i)
}

func parseSequence(lines []yamlLine, i int) (any, int, error) {
	indent := lines[i].indent
	var out []any
	for i < len(lines) && lines[i].indent == indent && (lines[i].text == "-" || strings.HasPrefix(lines[i].text, "- ")) {
		rest := strings.TrimSpace(strings.TrimPrefix(lines[i].text, "-"))
		var v any
		var err error
		switch {
		case rest == "":
			if i+1 >= len(lines) || lines[i+1].indent <= indent {
				return nil, 0, fmt.Errorf("line %d: an empty item", lines[i].num)
			}
			v, i, err = parseNode(lines, i+1)
		case isMappingEntry(rest):
			// "- key: value" opens a mapping whose entries sit two columns in.
			sub := append([]yamlLine{{lines[i].num, indent + 2, rest}}, lines[i+1:]...)
			var n int
			v, n, err = parseMapping(sub, 0)
			i += n
		default:
			v, err = parseScalar(rest, lines[i].num)
			i++
		}
		if err != nil {
			return nil, 0, err
		}
		out = append(out, v)
	}
	return out, i, nil
}

func parseMapping(lines []yamlLine, i int) (any, int, error) {
	indent := lines[i].indent
	out := map[string]any{}
	for i < len(lines) && lines[i].indent == indent {
		l := lines[i]
		if !isMappingEntry(l.text) {
			return nil, 0, fmt.Errorf("line %d: %q is not a key: value entry", l.num, l.text)
		}
		key, rest, _ := strings.Cut(l.text, ":")
		rest = strings.TrimSpace(rest)
		if _, dup := out[key]; dup {
			return nil, 0, fmt.Errorf("line %d: key %q twice", l.num, key)
		}
		var v any
		var err error
		if rest != "" {
			v, err = parseScalar(rest, l.num)
			i++
		} else if i+1 < len(lines) && (lines[i+1].indent > indent || lines[i+1].indent == indent && strings.HasPrefix(lines[i+1].text, "- ")) {
			v, i, err = parseNode(lines, i+1)
		} else {
			return nil, 0, fmt.Errorf("line %d: key %q has no value", l.num, key)
		}
		if err != nil {
			return nil, 0, err
		}
		out[key] = v
	}
	return out, i, nil
}

// isMappingEntry tells "key: value" and "key:" from a scalar.
func isMappingEntry(text string) bool {
	key, _, ok := strings.Cut(text, ":")
	return ok && key != "" && !strings.ContainsAny(key, " \"'[{") && (strings.HasPrefix(text[len(key):], ": ") || text[len(key):] == ":")
}

// parseScalar reads a plain scalar, or a JSON string or array.
func parseScalar(text string, num int) (any, error) {
	switch text[0] {
	case '"', '[':
		var v any
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			return nil, fmt.Errorf("line %d: %q: %v", num, text, err)
		}
		return v, nil
	case '{', '&', '*', '!', '|', '>', '\'':
		return nil, fmt.Errorf("line %d: %q is YAML the manifests do not use", num, text)
	}
	if strings.Contains(text, " #") {
		return nil, fmt.Errorf("line %d: an inline comment", num)
	}
	return text, nil
}
