package docgen

import (
	"context"
	"fmt"
	"html"
	"os/exec"
	"slices"
	"sort"
	"strings"

	"github.com/routelab/routelab/plot"
)

const module = "github.com/routelab/routelab/"

// importGraph is the routelab binary's own packages and the imports
// between them, as the go command sees them.
type importGraph map[string][]string

// readImportGraph lists the packages of the module that cmd/routelab
// depends on, with their imports inside the module.
func readImportGraph(ctx context.Context, root string) (importGraph, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-deps", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./cmd/routelab")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w", err)
	}
	g := importGraph{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 || !strings.HasPrefix(fields[0], module) {
			continue
		}
		pkg := owner(strings.TrimPrefix(fields[0], module))
		if _, ok := g[pkg]; !ok {
			g[pkg] = nil
		}
		for _, imp := range fields[1:] {
			if q := owner(strings.TrimPrefix(imp, module)); strings.HasPrefix(imp, module) && q != pkg && !slices.Contains(g[pkg], q) {
				g[pkg] = append(g[pkg], q)
			}
		}
	}
	return g, nil
}

// owner is the layer a package is drawn as: the engine's sub-packages
// (engine/internal/prefix) are the model, standard library only, so they
// are drawn as the engine; the shared leaves under internal/ (sheet and
// the like, standard library only) are drawn as one box.
func owner(pkg string) string {
	switch {
	case strings.HasPrefix(pkg, "engine/"):
		return "engine"
	case strings.HasPrefix(pkg, "internal/"):
		return "internal"
	}
	return pkg
}

// reachesAvoiding tells whether from imports to, directly or not, without
// the edge skipFrom → skipTo.
func (g importGraph) reachesAvoiding(from, to string, skipFrom, skipTo string) bool {
	seen := map[string]bool{}
	var walk func(p string) bool
	walk = func(p string) bool {
		if p == to {
			return true
		}
		if seen[p] {
			return false
		}
		seen[p] = true
		for _, q := range g[p] {
			if p == skipFrom && q == skipTo {
				continue
			}
			if walk(q) {
				return true
			}
		}
		return false
	}
	return walk(from)
}

// reduced returns the edges no longer path implies: the picture keeps
// "cmd → dsl → display" and drops "cmd → display".
func (g importGraph) reduced() [][2]string {
	var edges [][2]string
	for p, imps := range g {
		for _, q := range imps {
			if !g.reachesAvoiding(p, q, p, q) {
				edges = append(edges, [2]string{p, q})
			}
		}
	}
	sort.Slice(edges, func(i, j int) bool {
		return edges[i][0] < edges[j][0] || edges[i][0] == edges[j][0] && edges[i][1] < edges[j][1]
	})
	return edges
}

// layers puts each package in a column: what imports nothing of the module
// can sit on the left, each importer to the right of what it imports, and
// each package as far right as its importers allow, so arrows are short.
func (g importGraph) layers() map[string]int {
	height := map[string]int{} // longest import chain below a package
	var below func(p string) int
	below = func(p string) int {
		if h, ok := height[p]; ok {
			return h
		}
		h := 0
		for _, q := range g[p] {
			h = max(h, below(q)+1)
		}
		height[p] = h
		return h
	}
	top := 0
	for p := range g {
		top = max(top, below(p))
	}
	importers := map[string][]string{}
	for p, imps := range g {
		for _, q := range imps {
			importers[q] = append(importers[q], p)
		}
	}
	column := map[string]int{}
	var place func(p string) int
	place = func(p string) int {
		if c, ok := column[p]; ok {
			return c
		}
		c := top
		for _, q := range importers[p] {
			c = min(c, place(q)-1)
		}
		column[p] = c
		return c
	}
	for p := range g {
		place(p)
	}
	return column
}

// architectureSVG draws the import graph, importers to the right of what
// they import, each arrow pointing at the imported package.
func architectureSVG(g *Generator) ([]byte, error) {
	graph, err := readImportGraph(g.ctx, g.Root)
	if err != nil {
		return nil, err
	}
	return drawImportGraph(graph), nil
}

func drawImportGraph(graph importGraph) []byte {
	depth := graph.layers()
	columns := 0
	for _, d := range depth {
		columns = max(columns, d+1)
	}
	// An import that skips columns passes through a waypoint in each
	// column between (Sugiyama's dummy nodes), which is ordered like a
	// package, so no arrow runs behind a box.
	col := make([][]string, columns)
	for p, d := range depth {
		col[d] = append(col[d], p)
	}
	next := map[string][]string{} // towards the imported package
	prev := map[string][]string{} // towards the importer
	type route struct {
		from, to string
		via      []string
	}
	var routes []route
	for _, e := range graph.reduced() {
		r := route{from: e[0], to: e[1]}
		at := e[0]
		for c := depth[e[0]] - 1; c > depth[e[1]]; c-- {
			w := fmt.Sprintf("\x00%s→%s@%d", e[0], e[1], c)
			col[c] = append(col[c], w)
			next[at], prev[w] = append(next[at], w), append(prev[w], at)
			r.via, at = append(r.via, w), w
		}
		next[at], prev[e[1]] = append(next[at], e[1]), append(prev[e[1]], at)
		routes = append(routes, r)
	}
	// Order the columns to keep arrows short: by name first, then sweeps
	// that sort each column by the mean row of its neighbours (what it
	// imports, then what imports it), ties kept in place.
	row := map[string]float64{}
	place := func(c int, neighbours map[string][]string) {
		key := map[string]float64{}
		for _, p := range col[c] {
			key[p] = row[p]
			if ns := neighbours[p]; len(ns) > 0 {
				var sum float64
				for _, q := range ns {
					sum += row[q]
				}
				key[p] = sum / float64(len(ns))
			}
		}
		sort.SliceStable(col[c], func(i, j int) bool { return key[col[c][i]] < key[col[c][j]] })
		for i, p := range col[c] {
			row[p] = float64(i)
		}
	}
	for c := range col {
		slices.Sort(col[c])
		for i, p := range col[c] {
			row[p] = float64(i)
		}
	}
	for range 4 {
		for c := 1; c < columns; c++ {
			place(c, next)
		}
		for c := columns - 2; c >= 0; c-- {
			place(c, prev)
		}
	}
	const (
		charW, boxH, padX  = 7.8, 30.0, 12.0
		gapX, gapY, margin = 56.0, 22.0, 16.0
	)
	waypoint := func(p string) bool { return strings.HasPrefix(p, "\x00") }
	boxW := func(p string) float64 { return float64(len(p))*charW + 2*padX }
	colW := make([]float64, columns)
	rows := 0
	for c, ps := range col {
		for _, p := range ps {
			if !waypoint(p) {
				colW[c] = max(colW[c], boxW(p))
			}
		}
		rows = max(rows, len(ps))
	}
	x := make([]float64, columns)
	width := margin
	for c := range col {
		x[c] = width
		width += colW[c] + gapX
	}
	width += margin - gapX
	tallest := float64(rows)*boxH + float64(rows-1)*gapY
	height := 2*margin + tallest + 24
	y := map[string]float64{}
	for _, ps := range col {
		h := float64(len(ps))*boxH + float64(len(ps)-1)*gapY
		for i, p := range ps {
			y[p] = margin + (tallest-h)/2 + float64(i)*(boxH+gapY) + boxH/2
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="ui-monospace, SFMono-Regular, Menlo, Consolas, monospace" font-size="13">`+"\n", width, height, width, height)
	b.WriteString(`<title>routelab's packages: each arrow points from a package to one it imports</title>` + "\n")
	b.WriteString(`<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker></defs>` + "\n")
	fmt.Fprintf(&b, `<rect width="%.0f" height="%.0f" fill="#fff"/>`+"\n", width, height)
	for _, r := range routes {
		// Through each waypoint's column straight across, curving between
		// columns.
		px, py := x[depth[r.from]], y[r.from]
		path := fmt.Sprintf("M%.1f,%.1f", px, py)
		for _, w := range r.via {
			c := depth[r.from] - 1 - slices.Index(r.via, w)
			right, left := x[c]+colW[c], x[c]
			mid := (px + right) / 2
			path += fmt.Sprintf(" C%.1f,%.1f %.1f,%.1f %.1f,%.1f L%.1f,%.1f", mid, py, mid, y[w], right, y[w], left, y[w])
			px, py = left, y[w]
		}
		tx, ty := x[depth[r.to]]+boxW(r.to), y[r.to]
		mid := (px + tx) / 2
		path += fmt.Sprintf(" C%.1f,%.1f %.1f,%.1f %.1f,%.1f", mid, py, mid, ty, tx, ty)
		fmt.Fprintf(&b, `<path d="%s" fill="none" stroke="#555" stroke-width="1.3" marker-end="url(#arrow)"/>`+"\n", path)
	}
	names := make([]string, 0, len(depth))
	for p := range depth {
		names = append(names, p)
	}
	slices.Sort(names)
	for _, p := range names {
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.0f" rx="5" fill="#eef3fb" stroke="#3b6db3"/>`+"\n", x[depth[p]], y[p]-boxH/2, boxW(p), boxH)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" fill="#111">%s</text>`+"\n", x[depth[p]]+padX, y[p]+4.5, html.EscapeString(p))
	}
	fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" fill="#555" font-size="12">generated from go list -deps ./cmd/routelab; an import implied by others is not drawn</text>`+"\n", margin, height-margin+4)
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

// stragglerSVG is the README's figure: the four policies of the
// specification on the straggler scenario, as `routelab compare --scenario
// straggler --svg F` draws it.
func stragglerSVG(g *Generator) ([]byte, error) {
	c, err := g.runStraggler()
	if err != nil {
		return nil, err
	}
	fig, err := plot.Comparison(c)
	if err != nil {
		return nil, err
	}
	svg, err := fig.SVGContext(g.ctx)
	return []byte(svg), err
}
