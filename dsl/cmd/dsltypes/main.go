// Command dsltypes writes the type information of Go packages — what
// go/types needs to check code that imports them — as one file that a dsl
// session embeds, so that cells are checked by Go's type checker against
// the packages they can import without a Go toolchain at run time.
//
//	//go:generate go run github.com/routelab/routelab/dsl/cmd/dsltypes -o FILE.bin PATH...
//
// A PATH ending in /... stands for the standard packages yaegi's symbol
// table exposes. Each package is type-checked from the compiler's export
// data (go list -export) and written in gcexportdata's format, with
// positions reduced to file base names so the file is the same on every
// machine. The file (see dsl.ReadTypes) is gzip-compressed: a sequence of
// path, length, data.
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"go/importer"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path"
	"sort"
	"strings"

	"github.com/traefik/yaegi/stdlib"
	"golang.org/x/tools/go/gcexportdata"
)

func main() {
	out := flag.String("o", "", "output file")
	flag.Parse()
	if *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: dsltypes -o FILE.bin PATH... (std/... for yaegi's standard packages)")
		os.Exit(2)
	}
	if err := run(*out, expand(flag.Args())); err != nil {
		fmt.Fprintln(os.Stderr, "dsltypes:", err)
		os.Exit(1)
	}
}

// expand replaces std/... by the standard packages of yaegi's symbol table.
func expand(args []string) []string {
	var paths []string
	for _, a := range args {
		if a != "std/..." {
			paths = append(paths, a)
			continue
		}
		for key := range stdlib.Symbols() {
			p := path.Dir(key)
			if p != "." && !strings.Contains(p, "internal") {
				paths = append(paths, p)
			}
		}
	}
	sort.Strings(paths)
	return compact(paths)
}

func compact(s []string) []string {
	var out []string
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

func run(out string, paths []string) error {
	files, err := exportFiles(paths)
	if err != nil {
		return err
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(p string) (io.ReadCloser, error) {
		f, ok := files[p]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", p)
		}
		return os.Open(f)
	})
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	for _, p := range paths {
		pkg, err := imp.Import(p)
		if err != nil {
			return fmt.Errorf("%s: %v", p, err)
		}
		var data bytes.Buffer
		if err := gcexportdata.Write(&data, baseNames(fset), pkg); err != nil {
			return fmt.Errorf("%s: %v", p, err)
		}
		writeEntry(zw, p, data.Bytes())
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(out, buf.Bytes(), 0o644)
}

func writeEntry(w io.Writer, name string, data []byte) {
	var n [binary.MaxVarintLen64]byte
	w.Write(n[:binary.PutUvarint(n[:], uint64(len(name)))])
	io.WriteString(w, name)
	w.Write(n[:binary.PutUvarint(n[:], uint64(len(data)))])
	w.Write(data)
}

// baseNames is a file set with the files of fset renamed to their base
// names: export data records file names, and absolute paths would differ
// between machines.
func baseNames(fset *token.FileSet) *token.FileSet {
	renamed := token.NewFileSet()
	fset.Iterate(func(f *token.File) bool {
		g := renamed.AddFile(path.Base(f.Name()), f.Base(), f.Size())
		g.SetLines(f.Lines())
		return true
	})
	return renamed
}

// exportFiles runs go list -export over paths and their dependencies and
// returns each package's export data file.
func exportFiles(paths []string) (map[string]string, error) {
	cmd := exec.Command("go", append([]string{"list", "-export", "-deps", "-json=ImportPath,Export"}, paths...)...)
	cmd.Stderr = os.Stderr
	outb, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v", err)
	}
	files := map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(outb))
	for {
		var p struct{ ImportPath, Export string }
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		files[p.ImportPath] = p.Export
	}
	return files, nil
}
