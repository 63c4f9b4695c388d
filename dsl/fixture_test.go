package dsl_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/routelab/routelab/dsl"
	"github.com/routelab/routelab/dsl/internal/testlibsym"
)

var update = flag.Bool("update", false, "rewrite the expected output of the fixtures in testdata/cells")

// A fixture file holds a sequence of cells run in one fresh session. Cells
// are separated by "// ---" lines; each ends with a "// Output:" line
// followed by the expected transcript as "// " comment lines (see
// recorder.transcript: stdout text, "[stderr] " lines, "[display]" lines,
// "=> " for the cell's value and "Error: " plus "! " traceback lines).
type fixtureCell struct {
	code, want string
}

const (
	cellSep    = "// ---"
	outputHead = "// Output:"
)

func parseFixture(src string) []fixtureCell {
	var cells []fixtureCell
	for _, part := range strings.Split(src, "\n"+cellSep+"\n") {
		lines := strings.Split(strings.TrimSuffix(part, "\n"), "\n")
		head := len(lines)
		for k := len(lines) - 1; k >= 0; k-- {
			if lines[k] == outputHead {
				head = k
				break
			}
		}
		c := fixtureCell{code: strings.Join(lines[:head], "\n") + "\n"}
		if head < len(lines) {
			for _, l := range lines[head+1:] {
				l = strings.TrimPrefix(strings.TrimPrefix(l, "//"), " ")
				c.want += l + "\n"
			}
		}
		cells = append(cells, c)
	}
	return cells
}

func formatFixture(cells []fixtureCell) string {
	var b strings.Builder
	for i, c := range cells {
		if i > 0 {
			b.WriteString(cellSep + "\n")
		}
		b.WriteString(c.code)
		b.WriteString(outputHead + "\n")
		for _, l := range strings.Split(strings.TrimSuffix(c.want, "\n"), "\n") {
			if c.want == "" {
				break
			}
			if l == "" {
				b.WriteString("//\n")
			} else {
				b.WriteString("// " + l + "\n")
			}
		}
	}
	return b.String()
}

func newSession(t testing.TB) *dsl.Session {
	t.Helper()
	s, err := dsl.New(dsl.Options{Libraries: []dsl.Library{testlibsym.Library(true)}, Env: []string{"ROUTELAB_TEST=1"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestFixtures(t *testing.T) {
	files, err := filepath.Glob("testdata/cells/*.cells")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".cells"), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			cells := parseFixture(string(src))
			s := newSession(t)
			for i := range cells {
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				rec := &recorder{}
				b, err := s.Execute(ctx, cells[i].code, rec)
				cancel()
				got := rec.transcript(b, err)
				if *update {
					cells[i].want = got
				} else if got != cells[i].want {
					t.Errorf("cell %d:\n%s\ngot:\n%s\nwant:\n%s", i+1, cells[i].code, got, cells[i].want)
				}
			}
			if *update {
				if err := os.WriteFile(file, []byte(formatFixture(cells)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
