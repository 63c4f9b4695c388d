package dsl

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"fmt"
	"go/token"
	"go/types"
	"io"
	"sync"

	"golang.org/x/tools/go/gcexportdata"
)

// Type information for the checker: the packages a cell can import, as
// export data that cmd/dsltypes writes at go generate time (the standard
// packages in stdtypes.bin, a library's in Library.Types).

// exportTable maps an import path to its package's export data.
type exportTable map[string][]byte

// readTypes decodes a file written by cmd/dsltypes.
func readTypes(bin []byte) (exportTable, error) {
	zr, err := gzip.NewReader(bytes.NewReader(bin))
	if err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	t := exportTable{}
	for len(raw) > 0 {
		name, rest, err := field(raw)
		if err != nil {
			return nil, err
		}
		data, rest, err := field(rest)
		if err != nil {
			return nil, err
		}
		t[string(name)] = data
		raw = rest
	}
	return t, nil
}

func field(b []byte) (val, rest []byte, err error) {
	n, k := binary.Uvarint(b)
	if k <= 0 || uint64(len(b)-k) < n {
		return nil, nil, fmt.Errorf("type table damaged")
	}
	return b[k : k+int(n)], b[k+int(n):], nil
}

// typeImporter imports packages for one session's checks from export
// tables. Packages are read once and shared by every later check: types
// of one session must be identical from cell to cell.
type typeImporter struct {
	fset   *token.FileSet
	tables []exportTable
	pkgs   map[string]*types.Package
	done   map[string]bool
}

func newTypeImporter(fset *token.FileSet, tables ...exportTable) *typeImporter {
	return &typeImporter{fset: fset, tables: tables, pkgs: map[string]*types.Package{}, done: map[string]bool{}}
}

func (im *typeImporter) Import(path string) (*types.Package, error) {
	if im.done[path] {
		return im.pkgs[path], nil
	}
	for _, t := range im.tables {
		if data, ok := t[path]; ok {
			pkg, err := gcexportdata.Read(bytes.NewReader(data), im.fset, im.pkgs, path)
			if err != nil {
				return nil, err
			}
			im.done[path] = true
			return pkg, nil
		}
	}
	return nil, fmt.Errorf("package %s is not available in cells", path)
}

//go:generate go run github.com/routelab/routelab/dsl/cmd/dsltypes -o stdtypes.bin std/... slices maps cmp iter

//go:embed stdtypes.bin
var stdTypesBin []byte

// stdTypes is the standard packages' table, decoded once per process.
var stdTypes = sync.OnceValues(func() (exportTable, error) { return readTypes(stdTypesBin) })

// newSessionChecker makes the type checker of a session with libs.
func newSessionChecker(libs []Library) (*goChecker, error) {
	std, err := stdTypes()
	if err != nil {
		return nil, fmt.Errorf("standard packages' types: %w", err)
	}
	tables := []exportTable{std}
	unchecked := map[string]bool{}
	seen := map[*byte]bool{}
	for _, l := range libs {
		if len(l.Types) == 0 {
			unchecked[l.Path] = true
			continue
		}
		if seen[&l.Types[0]] {
			continue
		}
		seen[&l.Types[0]] = true
		t, err := libraryTypes(l.Types)
		if err != nil {
			return nil, fmt.Errorf("library %s: types: %w", l.Path, err)
		}
		tables = append(tables, t)
	}
	return newGoChecker(newTypeImporter(token.NewFileSet(), tables...), unchecked), nil
}

// decoded caches the tables of libraries' Types by their first byte: a
// library's table is decoded once per process, not once per session.
var decoded sync.Map

func libraryTypes(bin []byte) (exportTable, error) {
	if t, ok := decoded.Load(&bin[0]); ok {
		return t.(exportTable), nil
	}
	t, err := readTypes(bin)
	if err == nil {
		decoded.Store(&bin[0], t)
	}
	return t, err
}
