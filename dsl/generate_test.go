package dsl_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/routelab/routelab/dsl"
	"github.com/routelab/routelab/dsl/internal/testlibsym"
	"github.com/traefik/yaegi/extract"
)

// The generated symbols and documentation of the test library must match
// its source: a library whose generated files are stale exposes the wrong
// symbols to cells. (The pattern the lab package follows.)

func TestSymbolsAreFresh(t *testing.T) {
	ext := extract.Extractor{Dest: "testlibsym"}
	var buf bytes.Buffer
	if _, err := ext.Extract(testlibsym.Path, "testlibsym", &buf); err != nil {
		t.Fatal(err)
	}
	const file = "internal/testlibsym/github_com-routelab-routelab-dsl-internal-testlib.go"
	checked, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), checked) {
		t.Errorf("%s is stale: run go generate ./dsl/internal/testlibsym", file)
	}
}

func TestDocIndexIsFresh(t *testing.T) {
	got, err := dsl.GenerateDocIndex("internal/testlib", testlibsym.Path, "testlibsym", "Docs")
	if err != nil {
		t.Fatal(err)
	}
	const file = "internal/testlibsym/docs.go"
	checked, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, checked) {
		t.Errorf("%s is stale: run go generate ./dsl/internal/testlibsym", file)
	}
	if d := testlibsym.Docs()["Report.HTML"]; d != "func (r *Report) HTML() string\n\nHTML renders the report." {
		t.Errorf("Docs()[Report.HTML] = %q", d)
	}
}
