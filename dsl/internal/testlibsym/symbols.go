package testlibsym

import (
	_ "embed"
	"reflect"

	"github.com/routelab/routelab/dsl"
	"github.com/routelab/routelab/dsl/internal/testlib"
)

//go:generate go run github.com/routelab/routelab/dsl/cmd/dslextract github.com/routelab/routelab/dsl/internal/testlib
//go:generate go run github.com/routelab/routelab/dsl/cmd/dsltypes -o types.bin github.com/routelab/routelab/dsl/internal/testlib
//go:generate go run github.com/routelab/routelab/dsl/cmd/dsldoc -o docs.go github.com/routelab/routelab/dsl/internal/testlib

// symbols is filled by the generated file (yaegi extract's layout).
var symbols = map[string]map[string]reflect.Value{}

// lazily builds the generated file's table at once: a test library has no
// start-up cost to save (dsl/symbols builds its tables on first use).
func lazily(load func()) struct{} {
	load()
	return struct{}{}
}

//go:embed types.bin
var typesBin []byte

// Path is testlib's import path.
const Path = "github.com/routelab/routelab/dsl/internal/testlib"

// Library describes testlib for a session. With preImport, cells use it as
// testlib.X without importing it.
func Library(preImport bool) dsl.Library {
	return dsl.Library{
		Path:      Path,
		Name:      "testlib",
		Symbols:   symbols[Path+"/testlib"],
		Docs:      Docs(),
		Types:     typesBin,
		PreImport: preImport,
		Bind:      Bind,
	}
}

// Bind gives the session-bound versions of the functions that need the
// running cell: its context, output and display.
func Bind(h dsl.Host) map[string]reflect.Value {
	return map[string]reflect.Value{
		"Route": reflect.ValueOf(func(n, replicas int, decide testlib.Decide) ([]int, error) {
			return testlib.RouteContext(h.Context(), n, replicas, decide)
		}),
		"Forever": reflect.ValueOf(func(f func(int) int) (int, error) {
			return testlib.Spin(h.Context(), f)
		}),
		"Hello": reflect.ValueOf(func(name string) { testlib.Greet(h.Stdout(), name) }),
		"Show":  reflect.ValueOf(func(v any) { h.Display(v) }),
	}
}
