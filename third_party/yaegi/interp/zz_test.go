package interp_test

import (
	"go/ast"
	"go/parser"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

func TestZZ(t *testing.T) {
	i := interp.New(interp.Options{})
	i.Use(stdlib.Symbols())
	i.Eval(`import "strconv"`)
	e, _ := parser.ParseExpr("func() {\na, b := strconv.Atoi(\"3\")\nprintln(a, b)\n}")
	if _, err := i.CompileAST(e.(*ast.FuncLit).Body); err != nil {
		t.Fatal(err)
	}
}
