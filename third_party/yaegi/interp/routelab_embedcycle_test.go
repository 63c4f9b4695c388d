package interp_test

import (
	"strings"
	"testing"
)

// An interface that an interface type inside its methods embeds is an
// invalid recursive type to Go (fixedbugs/issue56103.go, an errorcheck
// program go/types accepts); interfaces that refer to themselves otherwise
// compile.
func TestRoutelabInterfaceEmbeddingCycleRefused(t *testing.T) {
	for _, c := range []struct{ decl, want string }{
		{"type i interface{ m() interface{ i } }", "3:6: invalid recursive type i (i embeds i): an interface type in its methods embeds it"},
		{"type j interface{ m() interface{ k } }\ntype k interface{ m() interface{ j } }", "3:6: invalid recursive type j (j embeds k embeds j)"},
		{"func f() { type i interface{ m() struct{ i interface{ i } } } }", "invalid recursive type i (i embeds i)"},
	} {
		src := "package main\n\n" + c.decl + "\n\nfunc main() {}\n"
		if got := compileError(t, src); !strings.Contains(got, c.want) {
			t.Errorf("%s: error %q, want it to contain %q", c.decl, got, c.want)
		}
	}
	got := runProgram(t, `package main

import "fmt"

type I interface{ m() I }

type A interface{ B }

type B interface{ N() interface{ fmt.Stringer } }

type C interface{ m() interface{ B } }

func main() { fmt.Println("ok") }
`)
	if got != "ok\n" {
		t.Errorf("got %q, want %q", got, "ok\n")
	}
}
