package goldmark_test

// Tests of routelab's patches (see ROUTELAB.md).

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
)

var update = flag.Bool("update", false, "rewrite testdata/routelab_corpus.*.html from the code under test (run it on pristine goldmark, see ROUTELAB.md)")

// Bounds on what goldmark's packages may allocate while they are
// initialised. Pristine v1.8.7 allocates about 549 KB in 3,551 allocations
// (its regexps and case-folding map); what remains after the patch, about
// 54 KB in 270 allocations, is the exported attribute filters of
// renderer/html and extension and goldmark.Convert's default Markdown,
// which stay eager because a program may read or reassign what they use.
const (
	initBytesBound  = 64 << 10
	initAllocsBound = 512
)

var initLine = regexp.MustCompile(`(?m)^init (github\.com/yuin/goldmark(?:/\S+)?) @.*, (\d+) bytes, (\d+) allocs$`)

// Package initialisation compiles no regexp and builds no table: a fresh
// process (this test binary run again with GODEBUG=inittrace=1) reports
// what each goldmark package allocated before main.
func TestRoutelabLazyInitialisation(t *testing.T) {
	if os.Getenv("ROUTELAB_GOLDMARK_INIT_CHILD") != "" {
		return // the trace was written before this test began
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestRoutelabLazyInitialisation$", "-test.count=1")
	cmd.Env = append(os.Environ(), "ROUTELAB_GOLDMARK_INIT_CHILD=1", "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the test binary with GODEBUG=inittrace=1: %v\n%s", err, out)
	}
	lines := initLine.FindAllStringSubmatch(string(out), -1)
	if len(lines) == 0 {
		t.Fatalf("no goldmark package in the init trace:\n%s", out)
	}
	var bytesTotal, allocsTotal int
	for _, m := range lines {
		b, _ := strconv.Atoi(m[2])
		a, _ := strconv.Atoi(m[3])
		t.Logf("%-40s %7d bytes %5d allocs", m[1], b, a)
		bytesTotal += b
		allocsTotal += a
	}
	if bytesTotal > initBytesBound || allocsTotal > initAllocsBound {
		t.Errorf("goldmark's packages allocate %d bytes in %d allocations while initialised; want at most %d bytes and %d allocations",
			bytesTotal, allocsTotal, initBytesBound, initAllocsBound)
	}
}

// A corpus that uses every lazily built regexp and table renders exactly
// as pristine v1.8.7 renders it (the golden files were written by this test
// with -update on an unpatched copy), with routelab's configuration
// (kernel/html.go) and with goldmark.Convert's default one. Several
// goroutines render at once, so the first use is concurrent.
func TestRoutelabRenderingUnchanged(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "routelab_corpus.md"))
	if err != nil {
		t.Fatal(err)
	}
	gfm := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))
	renders := map[string]func() ([]byte, error){
		"gfm": func() ([]byte, error) {
			var b bytes.Buffer
			err := gfm.Convert(src, &b)
			return b.Bytes(), err
		},
		"default": func() ([]byte, error) {
			var b bytes.Buffer
			err := goldmark.Convert(src, &b)
			return b.Bytes(), err
		},
	}
	const workers = 4
	got := make(map[string][][]byte)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for name, render := range renders {
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				out, err := render()
				if err != nil {
					t.Errorf("%s: %v", name, err)
				}
				mu.Lock()
				got[name] = append(got[name], out)
				mu.Unlock()
			}()
		}
	}
	wg.Wait()
	for name, outs := range got {
		golden := filepath.Join("testdata", "routelab_corpus."+name+".html")
		if *update {
			if err := os.WriteFile(golden, outs[0], 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		for i, out := range outs {
			if !bytes.Equal(out, want) {
				t.Errorf("%s, goroutine %d: the corpus renders differently from %s:\n%s", name, i, golden, out)
			}
		}
	}
}

// Every routelab test is listed in ROUTELAB.md with the change it covers.
func TestRoutelabChangesAreListed(t *testing.T) {
	table, err := os.ReadFile("ROUTELAB.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("routelab_test.go")
	if err != nil {
		t.Fatal(err)
	}
	tests := regexp.MustCompile(`(?m)^func (TestRoutelab\w+)\(`).FindAllStringSubmatch(string(src), -1)
	if len(tests) < 3 {
		t.Fatalf("found %d TestRoutelab functions", len(tests))
	}
	for _, m := range tests {
		if m[1] != "TestRoutelabChangesAreListed" && !strings.Contains(string(table), "`"+m[1]+"`") {
			t.Errorf("%s is not in ROUTELAB.md's table: add the change it covers", m[1])
		}
	}
}
