package dsl

import (
	"bytes"
	"go/ast"
	"go/printer"
	"go/token"
	"sort"
	"strings"
	"sync"
)

// The session keeps its own table of what cells declared, from their syntax
// trees: yaegi exposes little of it, and silently ignores some
// redefinitions, so this table drives redefinition checks, completion and
// inspection.

type symKind int

const (
	symVar symKind = iota
	symConst
	symType
	symFunc
	symMethod
)

func (k symKind) String() string {
	return [...]string{"var", "const", "type", "func", "method"}[k]
}

type symbol struct {
	Kind symKind
	Name string // "T.M" for methods
	Cell int
	Line int
	Col  int
	Src  string // the declaration's text, doc comment included
	Norm string // the declaration printed without comments, to detect changes
	Doc  string
	Sig  string // funcs and methods: the signature line
	// SigTypes is a func's or method's signature without parameter names
	// (receiver, parameters, results): a change of it is a new function.
	SigTypes string
	Refs     map[string]bool // funcs and methods: identifiers their bodies use
	Class    class           // vars and consts: what is known of the type; funcs: of the result
	Fields   []string        // struct types: field names
	// NoResults marks funcs without results (their calls show nothing).
	NoResults bool
	// SrcLine and SrcCol locate Src in its cell, to compile it again.
	SrcLine, SrcCol int
}

type symtab struct {
	mu      sync.RWMutex
	syms    map[string]*symbol
	imports map[string]string     // package name in cells -> import path
	values  map[string][]valueUse // func name -> where it was taken as a value
}

// valueUse is a statement that took a session func as a value (passed it,
// assigned it): that value keeps the definition of the time.
type valueUse struct {
	Cell int
	Text string // the statement, shortened
}

func newSymtab() *symtab {
	return &symtab{syms: map[string]*symbol{}, imports: map[string]string{}, values: map[string][]valueUse{}}
}

func (t *symtab) addValueUse(name string, use valueUse) {
	t.mu.Lock()
	t.values[name] = append(t.values[name], use)
	t.mu.Unlock()
}

func (t *symtab) valueUses(name string) []valueUse {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return append([]valueUse(nil), t.values[name]...)
}

func (t *symtab) get(name string) *symbol {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.syms[name]
}

func (t *symtab) put(s *symbol) {
	t.mu.Lock()
	t.syms[s.Name] = s
	t.mu.Unlock()
}

func (t *symtab) importPath(name string) (string, bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	p, ok := t.imports[name]
	return p, ok
}

func (t *symtab) addImport(name, path string) {
	t.mu.Lock()
	t.imports[name] = path
	t.mu.Unlock()
}

// importsCopy is a snapshot of the visible package names.
func (t *symtab) importsCopy() map[string]string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	m := make(map[string]string, len(t.imports))
	for k, v := range t.imports {
		m[k] = v
	}
	return m
}

// names returns the visible session names, sorted, without the hidden
// prelude helpers.
func (t *symtab) names() []string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	var out []string
	for n, s := range t.syms {
		if s.Kind != symMethod && !strings.HasPrefix(n, "_rl") {
			out = append(out, n)
		}
	}
	for n := range t.imports {
		if !strings.HasPrefix(n, "_rl") {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// dependents lists the funcs and methods that (transitively) use one of
// changed, in declaration order, excluding changed themselves.
func (t *symtab) dependents(changed map[string]bool) []*symbol {
	t.mu.RLock()
	defer t.mu.RUnlock()
	seen := map[string]bool{}
	for n := range changed {
		seen[n] = true
	}
	var out []*symbol
	for grew := true; grew; {
		grew = false
		for _, s := range t.syms {
			if seen[s.Name] || (s.Kind != symFunc && s.Kind != symMethod) {
				continue
			}
			for r := range s.Refs {
				if seen[r] {
					seen[s.Name], grew = true, true
					out = append(out, s)
					break
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Cell != b.Cell {
			return a.Cell < b.Cell
		}
		return a.Line < b.Line
	})
	return out
}

// declSymbols describes the declarations of a parsed declaration chunk.
// text is the chunk's source (for declaration texts), base its first
// position in fset.
func declSymbols(fset *token.FileSet, f *ast.File, text string, base int) []*symbol {
	var out []*symbol
	slice := func(n ast.Node, doc *ast.CommentGroup) string {
		start := n.Pos()
		if doc != nil {
			start = doc.Pos()
		}
		// A doc comment starts with the //line directive before the text.
		lo, hi := max(0, fset.File(start).Offset(start)-base), fset.File(start).Offset(n.End())-base
		if hi > len(text) || lo > hi {
			return ""
		}
		return text[lo:hi]
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			s := &symbol{Kind: symFunc, Name: d.Name.Name, Doc: d.Doc.Text(), Src: slice(d, d.Doc), Refs: identRefs(d.Body), Norm: withoutDoc(fset, d)}
			if d.Recv != nil && len(d.Recv.List) > 0 {
				s.Kind = symMethod
				s.Name = recvName(d.Recv.List[0].Type) + "." + d.Name.Name
			}
			if d.Type.Results != nil && len(d.Type.Results.List) == 1 && len(d.Type.Results.List[0].Names) <= 1 {
				s.Class = classOfType(d.Type.Results.List[0].Type)
			}
			s.Sig = signature(fset, d)
			s.SigTypes = sigTypes(fset, d)
			s.NoResults = d.Type.Results == nil || len(d.Type.Results.List) == 0
			out = append(out, place(fset, s, d.Name.Pos()))
		case *ast.GenDecl:
			out = append(out, genSymbols(fset, d, slice)...)
		}
	}
	return out
}

func genSymbols(fset *token.FileSet, d *ast.GenDecl, slice func(ast.Node, *ast.CommentGroup) string) []*symbol {
	var out []*symbol
	for _, sp := range d.Specs {
		doc := d.Doc
		switch sp := sp.(type) {
		case *ast.TypeSpec:
			if sp.Doc != nil {
				doc = sp.Doc
			}
			s := &symbol{Kind: symType, Name: sp.Name.Name, Doc: doc.Text(), Src: slice(d, d.Doc), Norm: nodeString(fset, sp)}
			if d.Lparen.IsValid() {
				s.Src = "type " + slice(sp, nil)
			}
			if st, ok := sp.Type.(*ast.StructType); ok {
				for _, f := range st.Fields.List {
					for _, n := range f.Names {
						s.Fields = append(s.Fields, n.Name)
					}
				}
			}
			out = append(out, place(fset, s, sp.Name.Pos()))
		case *ast.ValueSpec:
			if sp.Doc != nil {
				doc = sp.Doc
			}
			kind := symVar
			if d.Tok == token.CONST {
				kind = symConst
			}
			for k, n := range sp.Names {
				s := &symbol{Kind: kind, Name: n.Name, Doc: doc.Text(), Src: slice(d, d.Doc), Class: classOfType(sp.Type), Norm: nodeString(fset, sp)}
				if sp.Type == nil && k < len(sp.Values) {
					s.Class = literalClass(sp.Values[k])
				}
				out = append(out, place(fset, s, n.Pos()))
			}
		}
	}
	return out
}

func place(fset *token.FileSet, s *symbol, pos token.Pos) *symbol {
	p := fset.Position(pos)
	_, s.Line = splitLine(p.Line)
	s.Col = p.Column
	return s
}

// literalClass classifies an untyped constant or a literal initializer.
func literalClass(e ast.Expr) class {
	rw := &rewriter{types: noTypes{}}
	return rw.classOf(newScope(nil), e)
}

type noTypes struct{}

func (noTypes) classOf(string) class          { return unknownClass }
func (noTypes) libClass(string, string) class { return unknownClass }
func (noTypes) isConst(string) bool           { return false }

func recvName(t ast.Expr) string {
	switch t := t.(type) {
	case *ast.StarExpr:
		return recvName(t.X)
	case *ast.IndexExpr:
		return recvName(t.X)
	case *ast.IndexListExpr:
		return recvName(t.X)
	case *ast.Ident:
		return t.Name
	}
	return "?"
}

func identRefs(n *ast.BlockStmt) map[string]bool {
	refs := map[string]bool{}
	if n == nil {
		return refs // a function without a body: Go refuses it
	}
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			refs[id.Name] = true
		}
		return true
	})
	return refs
}

// signature prints a func declaration without its body.
func signature(fset *token.FileSet, d *ast.FuncDecl) string {
	c := *d
	c.Body, c.Doc = nil, nil
	return nodeString(fset, &c)
}

// sigTypes prints a func declaration's receiver, parameter and result
// types, without names.
func sigTypes(fset *token.FileSet, d *ast.FuncDecl) string {
	types := func(fl *ast.FieldList) string {
		if fl == nil {
			return "()"
		}
		var parts []string
		for _, f := range fl.List {
			t := nodeString(fset, f.Type)
			for range max(1, len(f.Names)) {
				parts = append(parts, t)
			}
		}
		return "(" + strings.Join(parts, ", ") + ")"
	}
	return types(d.Recv) + types(d.Type.TypeParams) + types(d.Type.Params) + types(d.Type.Results)
}

func withoutDoc(fset *token.FileSet, d *ast.FuncDecl) string {
	c := *d
	c.Doc = nil
	return nodeString(fset, &c)
}

func nodeString(fset *token.FileSet, n ast.Node) string {
	if n == nil || isNilNode(n) {
		return ""
	}
	var b bytes.Buffer
	if err := printer.Fprint(&b, fset, n); err != nil {
		return ""
	}
	return b.String()
}

// methodNames lists the methods declared on a type, given "T.".
func (t *symtab) methodNames(prefix string) []string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	var out []string
	for n, s := range t.syms {
		if s.Kind == symMethod && strings.HasPrefix(n, prefix) {
			out = append(out, strings.TrimPrefix(n, prefix))
		}
	}
	return out
}
