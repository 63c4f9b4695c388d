package dsl

import (
	"fmt"
	"go/scanner"
	"go/token"
	"strings"
)

// chunkKind classifies a run of top-level items of a cell. yaegi evaluates a
// source either as declarations or as statements, never both, so a cell is
// cut into runs of one kind and evaluated in order.
type chunkKind int

const (
	importChunk chunkKind = iota // import declarations (must precede other declarations)
	declChunk                    // type, const and func declarations, methods
	stmtChunk                    // statements, including var declarations and func literals
)

func (k chunkKind) String() string {
	switch k {
	case importChunk:
		return "import"
	case declChunk:
		return "decl"
	}
	return "stmt"
}

// chunk is a slice of a cell's source holding items of one kind. Line and Col
// locate its first byte in the cell so positions can be preserved.
type chunk struct {
	Kind      chunkKind
	Text      string
	Offset    int // byte offset of Text in the cell
	Line, Col int // 1-based position of Offset in the cell
}

// token plus offset, for look-ahead.
type scanned struct {
	tok token.Token
	off int
	lit string
}

// splitCell cuts src into chunks of top-level items. The chunks partition src
// exactly (their texts concatenate to src). A package clause is returned
// separately (its name, or "" when absent) and blanked out of the chunks.
// Scanner errors (such as an unterminated string) are returned with cell
// positions.
func splitCell(src string) (chunks []chunk, pkg string, err error) {
	toks, err := scanAll(src)
	if err != nil {
		return nil, "", err
	}
	items := topLevelItems(toks, len(src))
	if len(items) == 0 && src != "" {
		// Only space and comments: one (empty) statement chunk.
		return []chunk{{Kind: stmtChunk, Text: src, Line: 1, Col: 1}}, "", nil
	}
	// Positions advance with the items, and a chunk's text is joined once:
	// a file of thousands of declarations stays linear.
	var parts [][]string
	line, col, at := 1, 1, 0
	for _, it := range items {
		kind, isPkg, name := classify(toks[it.first:it.last])
		text := src[it.start:it.end]
		if isPkg {
			if pkg != "" || name == "" {
				return nil, "", positionedError(src, it.start, "a cell may start with one package clause naming a package")
			}
			pkg = name
			text = blankOut(text)
			kind = stmtChunk
		}
		line, col = advance(src, at, it.start, line, col)
		at = it.start
		n := len(chunks)
		if n > 0 && chunks[n-1].Kind == kind {
			parts[n-1] = append(parts[n-1], text)
			continue
		}
		chunks = append(chunks, chunk{Kind: kind, Offset: it.start, Line: line, Col: col})
		parts = append(parts, []string{text})
	}
	for i := range chunks {
		chunks[i].Text = strings.Join(parts[i], "")
	}
	return chunks, pkg, nil
}

func scanAll(src string) ([]scanned, error) {
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var errs scanner.ErrorList
	var s scanner.Scanner
	s.Init(file, []byte(src), func(pos token.Position, msg string) { errs.Add(pos, msg) }, 0)
	var toks []scanned
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		toks = append(toks, scanned{tok: tok, off: file.Offset(pos), lit: lit})
	}
	if len(errs) > 0 {
		errs.Sort()
		e := errs[0]
		return nil, &cellError{Line: e.Pos.Line, Col: e.Pos.Column, Msg: e.Msg}
	}
	return toks, nil
}

// item is one top-level declaration or statement: tokens [first,last) and
// the source bytes [start,end) it owns (leading space and comments included).
type item struct {
	first, last int
	start, end  int
}

func topLevelItems(toks []scanned, size int) []item {
	var items []item
	depth, first, start := 0, 0, 0
	for i, t := range toks {
		switch t.tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			if depth > 0 {
				depth--
			}
		case token.SEMICOLON:
			if depth > 0 {
				continue
			}
			end := min(t.off+1, size)
			if i > first {
				items = append(items, item{first: first, last: i, start: start, end: end})
				start = end
			}
			first = i + 1
		}
	}
	if first < len(toks) {
		items = append(items, item{first: first, last: len(toks), start: start, end: size})
	} else if start < size && len(items) > 0 {
		items[len(items)-1].end = size
	}
	return items
}

// classify tells which kind of chunk an item belongs in. A var declaration is
// a statement on purpose: yaegi reports a "variable definition loop" for a
// package-level var whose initializer uses an earlier cell's variable, and
// evaluates it correctly as a statement. A func literal is a statement; only
// `func name` and `func (recv) name` declare.
func classify(toks []scanned) (kind chunkKind, isPkg bool, name string) {
	if len(toks) == 0 {
		return stmtChunk, false, ""
	}
	switch toks[0].tok {
	case token.PACKAGE:
		if len(toks) > 1 {
			name = toks[1].lit
		}
		return stmtChunk, true, name
	case token.IMPORT:
		return importChunk, false, ""
	case token.TYPE, token.CONST:
		return declChunk, false, ""
	case token.FUNC:
		if isFuncDecl(toks) {
			return declChunk, false, ""
		}
	}
	return stmtChunk, false, ""
}

func isFuncDecl(toks []scanned) bool {
	if len(toks) < 2 {
		return false
	}
	if toks[1].tok == token.IDENT {
		return true
	}
	if toks[1].tok != token.LPAREN {
		return false
	}
	depth := 0
	for i := 1; i < len(toks); i++ {
		switch toks[i].tok {
		case token.LPAREN:
			depth++
		case token.RPAREN:
			depth--
			if depth == 0 {
				return i+2 < len(toks) && toks[i+1].tok == token.IDENT && toks[i+2].tok == token.LPAREN
			}
		}
	}
	return false
}

// blankOut replaces every non-newline byte with a space, keeping positions.
func blankOut(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c != '\n' {
			b[i] = ' '
		}
	}
	return string(b)
}

// lineCol returns the 1-based line and column (in bytes) of off in src.
func lineCol(src string, off int) (line, col int) {
	return advance(src, 0, off, 1, 1)
}

// advance moves the position line:col at offset from to offset to.
func advance(src string, from, to, line, col int) (int, int) {
	for i := from; i < to && i < len(src); i++ {
		if src[i] == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

func positionedError(src string, off int, format string, args ...any) error {
	line, col := lineCol(src, off)
	return &cellError{Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}
