package engine

import (
	"slices"

	"github.com/routelab/routelab/internal/sheet"
)

// How engine values show themselves to people. Exported types have a String
// method and, where they are a configuration or a result, an HTML method too:
// a notebook finds both by name (the display package's duck-typed contract),
// so the engine imports nothing for it. The longer forms are built from one
// sheet per type, rendered as text or as HTML, so the two cannot disagree.
// Lists are cut to maxShown entries: no value shows thousands of bare
// numbers, whatever the number of replicas, samples or runs behind it.

// addFields appends a record's fields as rows, leaving out the named ones.
func addFields(s *sheet.Sheet, rec []Field, skip ...string) {
	for _, f := range rec {
		if !slices.Contains(skip, f.Name) {
			s.Add(f.Name, f.ValueText())
		}
	}
}
