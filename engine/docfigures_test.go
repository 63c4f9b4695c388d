package engine_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/routelab/routelab/internal/docmark"
)

// validationDoc is the page whose measured figures these tests write:
// every figure there sits in a <!-- gen validation.NAME --> part, and the
// test that measures it records it with figure. After a run that recorded
// any, the page must show exactly what was recorded (go test ./engine
// -update rewrites it); after a full run, every part must have been
// recorded.
var validationDoc = filepath.Join("..", "docs", "validation.md")

// figures holds the recorded figures by part name; tests run in parallel.
var figures sync.Map

// validationPage is the page as TestValidationPageParses read it. The read
// must happen inside a test: go test's cache only notices files opened
// while tests run, so a page read in TestMain after them could change
// without a cached result noticing.
var validationPage []byte

func TestValidationPageParses(t *testing.T) {
	data, err := os.ReadFile(validationDoc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := docmark.Parts(string(data)); err != nil {
		t.Fatalf("docs/validation.md: %v", err)
	}
	validationPage = data
}

// figure records the text of the part validation.name.
func figure(name, format string, args ...any) {
	figures.Store("validation."+name, fmt.Sprintf(format, args...))
}

func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		if err := checkValidationDoc(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
	}
	os.Exit(code)
}

// checkValidationDoc compares (or with -update rewrites) the recorded
// figures with the page.
func checkValidationDoc() error {
	data := validationPage
	if data == nil {
		var err error
		if data, err = os.ReadFile(validationDoc); err != nil {
			return err
		}
	}
	doc := string(data)
	parts, err := docmark.Parts(doc)
	if err != nil {
		return fmt.Errorf("docs/validation.md: %w", err)
	}
	have := map[string]string{}
	for _, p := range parts {
		have[p.Name] = p.Text
	}
	// Only a run of every test can miss a figure: not -run, -skip, -short
	// or -list (which runs none).
	full := !testing.Short()
	for _, f := range []string{"test.run", "test.skip", "test.list"} {
		full = full && flag.Lookup(f).Value.String() == ""
	}
	var missing []string
	render := func(name string) (string, error) {
		if v, ok := figures.Load(name); ok {
			return v.(string), nil
		}
		if full {
			missing = append(missing, name)
		}
		return have[name], nil
	}
	if full {
		figures.Range(func(k, _ any) bool {
			if _, ok := have[k.(string)]; !ok {
				missing = append(missing, fmt.Sprintf("%s (recorded, but the page has no part for it)", k))
			}
			return true
		})
	}
	if update := flag.Lookup("update"); update != nil && update.Value.String() == "true" {
		out, err := docmark.Rewrite(doc, "validation", render)
		if err != nil {
			return err
		}
		if err := os.WriteFile(validationDoc, []byte(out), 0o644); err != nil {
			return err
		}
	} else {
		drifts, err := docmark.Check("docs/validation.md", doc, "validation", render)
		if err != nil {
			return err
		}
		if len(drifts) > 0 {
			msg := ""
			for _, d := range drifts {
				msg += d.Error() + "\n"
			}
			return fmt.Errorf("%s(the tests measured other figures than docs/validation.md shows: run go test ./engine -update and review the change)", msg)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("docs/validation.md: no test recorded %v", missing)
	}
	return nil
}
