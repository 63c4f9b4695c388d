package dsl

import (
	"fmt"
	"go/ast"
	"go/token"
	"reflect"
	"sort"
	"strings"
	"unicode"

	"github.com/routelab/routelab/display"
)

// Completion and inspection work from the session's own table (what cells
// declared), the compiled packages' symbol maps and documentation indexes,
// and the current values of variables. They never run code.

var goKeywords = []string{
	"break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough",
	"for", "func", "go", "goto", "if", "import", "interface", "map", "package", "range",
	"return", "select", "struct", "switch", "type", "var",
}

var goPredeclared = []string{
	"any", "append", "bool", "byte", "cap", "close", "comparable", "complex", "complex128",
	"complex64", "copy", "delete", "error", "false", "float32", "float64", "imag", "int",
	"int16", "int32", "int64", "int8", "iota", "len", "make", "new", "nil", "panic", "print",
	"println", "real", "recover", "rune", "string", "true", "uint", "uint16", "uint32",
	"uint64", "uint8", "uintptr",
}

// Complete proposes completions for code at cursor (a byte offset). After a
// dot it offers only the members of what precedes the dot, a package or a
// value whose type it can work out, and nothing when it cannot; inside a
// comment or a string (but an import path's) it offers nothing.
func (s *Session) Complete(code string, cursor int) display.Completion {
	cursor = max(0, min(cursor, len(code)))
	if start, prefix, ok := importString(code, cursor); ok {
		return display.Completion{Matches: filterPrefix(s.importPaths(), prefix), Start: start, End: cursor}
	}
	start := identStart(code, cursor)
	prefix := code[start:cursor]
	inLiteral, open, balanced := scanPrefix(code[:start])
	if inLiteral {
		return display.Completion{Start: start, End: cursor}
	}
	var cands []string
	if start > 0 && code[start-1] == '.' {
		if balanced {
			cands = s.members(s.operandBefore(code[:start-1], open))
		}
	} else {
		cands = append(cands, s.syms.names()...)
		cands = append(cands, goKeywords...)
		cands = append(cands, goPredeclared...)
		for name := range localImports(code, s) {
			cands = append(cands, name)
		}
	}
	return display.Completion{Matches: filterPrefix(cands, prefix), Start: start, End: cursor}
}

// Inspect describes the symbol at cursor: its signature and documentation
// for library and standard symbols and for the members of values (methods
// from the documentation indexes, with their promoted methods), its source
// (with its doc comment) for the session's declarations and the methods of
// cell types, and the type and value of variables.
func (s *Session) Inspect(code string, cursor int) (display.Bundle, bool) {
	cursor = max(0, min(cursor, len(code)))
	start := identStart(code, cursor)
	end := cursor
	for end < len(code) && isIdentByte(code[end]) {
		end++
	}
	name := code[start:end]
	if name == "" {
		return nil, false
	}
	var text string
	if start > 0 && code[start-1] == '.' {
		text = s.describeMember(s.operandAt(code, start-1), name)
	} else {
		text = s.describe(name, code)
	}
	if text == "" {
		return nil, false
	}
	return display.Bundle{display.TextPlain: text}, true
}

// IsComplete tells whether code can run as it is: "complete", "incomplete"
// (an unclosed bracket or raw string, a trailing operator) with the indent
// for the next line, or "invalid" (a syntax error).
func (s *Session) IsComplete(code string) (status, indent string) {
	if helpForms().MatchString(withoutLineComments(code)) {
		return "complete", ""
	}
	if pieces := magicPieces(code); pieces != nil {
		return isComplete(magicsAsGo(pieces))
	}
	return isComplete(code)
}

func (s *Session) importPaths() []string {
	var out []string
	for p := range s.exports {
		if p != runtimePath {
			out = append(out, p)
		}
	}
	for p := range genericSources {
		out = append(out, p)
	}
	return out
}

// members lists what can follow the dot after op.
func (s *Session) members(op operand) []string {
	if op.t != nil {
		return op.t.members()
	}
	if op.pkg == "" {
		return nil
	}
	var out []string
	for name := range s.exports[op.pkg] {
		if ast.IsExported(name) {
			out = append(out, name)
		}
	}
	return append(out, s.sourceFuncs(op.pkg)...)
}

// exported is a compiled package's symbol.
func (s *Session) exported(p, name string) (reflect.Value, bool) {
	v, ok := s.exports[p][name]
	return v, ok
}

// pathOf resolves a package name visible in the session or imported by code.
func (s *Session) pathOf(name, code string) (string, bool) {
	return s.pathIn(name, localImports(code, s))
}

// pathIn resolves a package name visible in the session or in local (the
// imports of the cell being typed).
func (s *Session) pathIn(name string, local map[string]string) (string, bool) {
	if p, ok := s.syms.importPath(name); ok {
		return p, true
	}
	if p, ok := local[name]; ok {
		return p, true
	}
	// A standard package not imported yet: offer its members all the same.
	best := ""
	for p, n := range s.names {
		if n == name && p != runtimePath && (best == "" || len(p) < len(best)) {
			best = p
		}
	}
	return best, best != ""
}

// localImports finds the imports of code itself (the cell being typed).
func localImports(code string, s *Session) map[string]string {
	out := map[string]string{}
	chunks, _, err := splitCell(code)
	if err != nil {
		return out
	}
	for _, c := range chunks {
		if c.Kind != importChunk {
			continue
		}
		for _, line := range strings.Split(c.Text, "\n") {
			f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "import"))
			if len(f) == 0 || strings.HasPrefix(f[0], "(") {
				continue
			}
			quoted, name := f[len(f)-1], ""
			p := strings.Trim(quoted, "\"`")
			if len(f) == 2 {
				name = f[0]
			} else {
				name = s.packageName(p)
			}
			if s.available(p) {
				out[name] = p
			}
		}
	}
	return out
}

func (s *Session) describe(name, code string) string {
	if sym := s.syms.get(name); sym != nil {
		text := strings.TrimSpace(sym.Src)
		if sym.Kind == symVar {
			if v, ok := s.in.Globals()[name]; ok && v.IsValid() {
				text += fmt.Sprintf("\n\n%s = %s", v.Type(), short(fmt.Sprint(v)))
			}
		}
		return text + "\n\n(declared in " + s.cellName(sym.Cell) + ")"
	}
	if p, ok := s.pathOf(name, code); ok {
		return fmt.Sprintf("package %s // import %q", s.packageName(p), p)
	}
	return ""
}

// describeMember describes the member name of op.
func (s *Session) describeMember(op operand, name string) string {
	if op.t != nil {
		return op.t.describe(name)
	}
	if op.pkg == "" {
		return ""
	}
	if d, ok := s.docs[op.pkg][name]; ok {
		return d
	}
	if d, ok := s.sourceDoc(op.pkg, name); ok {
		return d
	}
	if v, ok := s.exported(op.pkg, name); ok && v.IsValid() {
		return describeValue(s.packageName(op.pkg), name, v)
	}
	return ""
}

// describeValue describes a compiled symbol from its reflect value.
func describeValue(pkg, name string, v reflect.Value) string {
	t := v.Type()
	switch {
	case t.Kind() == reflect.Func:
		return fmt.Sprintf("func %s.%s%s", pkg, name, strings.TrimPrefix(t.String(), "func"))
	case t.Kind() == reflect.Pointer && v.IsNil():
		return fmt.Sprintf("type %s.%s (%s)", pkg, name, t.Elem().Kind())
	}
	if c, ok := v.Interface().(interface{ ExactString() string }); ok {
		return fmt.Sprintf("const %s.%s = %s", pkg, name, c.ExactString())
	}
	return fmt.Sprintf("var %s.%s %s", pkg, name, t)
}

func short(s string) string {
	if len(s) > 200 {
		return s[:197] + "..."
	}
	return s
}

func filterPrefix(cands []string, prefix string) []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range cands {
		if strings.HasPrefix(c, prefix) && !seen[c] && !strings.HasPrefix(c, "_") {
			seen[c] = true
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 0x80 || unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c))
}

func identStart(code string, cursor int) int {
	i := cursor
	for i > 0 && isIdentByte(code[i-1]) {
		i--
	}
	return i
}

// importString reports whether cursor is inside the string of an import
// spec, returning where the string's contents start and what precedes the
// cursor.
func importString(code string, cursor int) (int, string, bool) {
	lineStart := strings.LastIndexByte(code[:cursor], '\n') + 1
	line := code[lineStart:cursor]
	q := strings.LastIndexByte(line, '"')
	if q < 0 || strings.Count(line, "\"")%2 == 0 {
		return 0, "", false
	}
	before := strings.TrimSpace(line[:q])
	inBlock := strings.Contains(code[:lineStart], "import (") && !strings.Contains(code[strings.LastIndex(code[:lineStart], "import ("):lineStart], ")")
	if !strings.HasPrefix(before, "import") && !(inBlock && token.IsIdentifier(before) || inBlock && before == "") {
		return 0, "", false
	}
	return lineStart + q + 1, line[q+1:], true
}
