package dsl

import (
	"go/parser"
	"go/scanner"
	"go/token"
	"strings"
)

// continuation tokens: a line ending with one of them goes on.
var continuation = map[token.Token]bool{
	token.ADD: true, token.SUB: true, token.MUL: true, token.QUO: true, token.REM: true,
	token.AND: true, token.OR: true, token.XOR: true, token.SHL: true, token.SHR: true,
	token.AND_NOT: true, token.LAND: true, token.LOR: true, token.ARROW: true,
	token.EQL: true, token.NEQ: true, token.LSS: true, token.GTR: true, token.LEQ: true,
	token.GEQ: true, token.ASSIGN: true, token.DEFINE: true, token.ADD_ASSIGN: true,
	token.SUB_ASSIGN: true, token.MUL_ASSIGN: true, token.QUO_ASSIGN: true,
	token.REM_ASSIGN: true, token.AND_ASSIGN: true, token.OR_ASSIGN: true,
	token.XOR_ASSIGN: true, token.SHL_ASSIGN: true, token.SHR_ASSIGN: true,
	token.AND_NOT_ASSIGN: true, token.COMMA: true, token.PERIOD: true, token.COLON: true,
	token.NOT: true,
}

func isComplete(code string) (status, indent string) {
	if strings.TrimSpace(code) == "" {
		return "complete", ""
	}
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(code))
	var errs []string
	var sc scanner.Scanner
	sc.Init(file, []byte(code), func(_ token.Position, msg string) { errs = append(errs, msg) }, 0)
	var stack []token.Token
	last := token.ILLEGAL
	for {
		_, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue
		}
		switch tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			stack = append(stack, tok)
		case token.RPAREN, token.RBRACK, token.RBRACE:
			if len(stack) == 0 || !matches(stack[len(stack)-1], tok) {
				return "invalid", ""
			}
			stack = stack[:len(stack)-1]
		}
		last = tok
	}
	if len(errs) > 0 {
		if e := errs[0]; strings.Contains(e, "not terminated") && !strings.HasPrefix(e, "string literal") && !strings.HasPrefix(e, "rune literal") {
			return "incomplete", strings.Repeat("\t", len(stack))
		}
		return "invalid", ""
	}
	if len(stack) > 0 || continuation[last] {
		return "incomplete", strings.Repeat("\t", len(stack)+btoi(len(stack) == 0))
	}
	if syntaxError(code) {
		return "invalid", ""
	}
	return "complete", ""
}

func matches(open, close token.Token) bool {
	return open == token.LPAREN && close == token.RPAREN ||
		open == token.LBRACK && close == token.RBRACK ||
		open == token.LBRACE && close == token.RBRACE
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// syntaxError reports whether some chunk of a balanced cell fails to parse.
func syntaxError(code string) bool {
	chunks, _, err := splitCell(code)
	if err != nil {
		return true
	}
	fset := token.NewFileSet()
	for _, c := range chunks {
		src := "package main;" + c.Text
		if c.Kind == stmtChunk {
			src = "package main; func main() {" + c.Text + "\n}"
		}
		if _, err := parser.ParseFile(fset, "", src, 0); err != nil {
			return true
		}
	}
	return false
}
