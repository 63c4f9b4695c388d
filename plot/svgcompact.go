package plot

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// ECharts' SVG export spends much of its size on what no one sees: the
// invisible hit areas of labels, transforms with four decimals, and line
// series with a vertex every few tenths of a pixel. compactSVG removes
// those, so that a figure's static image stays small enough to travel
// inside every notebook output. What is drawn does not change by more
// than polylineTolerance.

// polylineTolerance is how far (in px) a simplified line may stray from
// the line ECharts drew: a quarter pixel, below what a screen or a
// 300 dpi print of a 96 px/in figure shows.
const polylineTolerance = 0.25

// polylineMinPoints is the shortest line worth simplifying.
const polylineMinPoints = 8

var (
	svgElement     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<(/?)([a-zA-Z]+)([^>]*?)(/?)>`) })
	svgTransform   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(matrix|translate)\(([^)]*)\)`) })
	svgPathData    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(` d="([^"]*)"`) })
	svgPolylineCmd = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^M(-?[\d.]+) (-?[\d.]+)(?:L-?[\d.]+ -?[\d.]+)+$`)
	})
)

// markerRunMin is the shortest run of identical markers drawn as uses of
// one definition.
const markerRunMin = 3

var svgMarker = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^<path d="([^"]+)" transform="matrix\((-?[\d.]+),0,0,(-?[\d.]+),(-?[\d.]+),(-?[\d.]+)\)" ([^<>]*)></path>$`)
})

// compactSVG returns svg without invisible paths, with transforms rounded
// to what a pixel shows, long stroked lines simplified, and runs of one
// marker (a scatter series: one path per point, as ECharts writes them)
// drawn as uses of one definition, with ids short but drawn from prefix
// (the figure's own), so that figures inlined in one page keep theirs.
func compactSVG(svg, prefix string) string {
	return textClasses(shareMarkers(compactElements(svg), prefix), prefix)
}

var svgTextStyle = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`<text dominant-baseline="([a-z-]+)" text-anchor="([a-z]+)" style="([^"<>{}]*)"`)
})

// textClasses gives each combination of baseline, anchor and font of the
// text elements a class, defined once in a style element: ECharts writes
// the three on every line of text. The class names are drawn from prefix
// (the figure's own), so that figures inlined in one page keep theirs.
func textClasses(svg, prefix string) string {
	classes := map[string]string{}
	var rules strings.Builder
	out := svgTextStyle().ReplaceAllStringFunc(svg, func(tag string) string {
		m := svgTextStyle().FindStringSubmatch(tag)
		key := m[1] + "|" + m[2] + "|" + m[3]
		name, ok := classes[key]
		if !ok {
			name = fmt.Sprintf("t%08x-%d", hash(prefix, "svg-text"), len(classes))
			classes[key] = name
			fmt.Fprintf(&rules, ".%s{dominant-baseline:%s;text-anchor:%s;%s}", name, m[1], m[2], m[3])
		}
		return `<text class="` + name + `"`
	})
	if len(classes) == 0 {
		return svg
	}
	open := strings.Index(out, "<svg")
	end := strings.IndexByte(out[max(open, 0):], '>')
	if open < 0 || end < 0 {
		return svg
	}
	at := open + end + 1
	return out[:at] + "\n<style>" + rules.String() + "</style>" + out[at:]
}

// shareMarkers replaces each run of markerRunMin or more lines that draw
// the same path at the same scale, with the same paint, by a group holding
// that paint and a use of the path per point.
func shareMarkers(svg, prefix string) string {
	lines := strings.Split(svg, "\n")
	defined := map[string]string{}
	var out []string
	for i := 0; i < len(lines); {
		m := svgMarker().FindStringSubmatch(lines[i])
		if m == nil || m[2] != m[3] {
			out = append(out, lines[i])
			i++
			continue
		}
		key := m[1] + "\x00" + m[2] + "\x00" + m[6]
		j := i + 1
		for ; j < len(lines); j++ {
			n := svgMarker().FindStringSubmatch(lines[j])
			if n == nil || n[2] != n[3] || n[1]+"\x00"+n[2]+"\x00"+n[6] != key {
				break
			}
		}
		if j-i < markerRunMin {
			out = append(out, lines[i:j]...)
			i = j
			continue
		}
		shape := m[1] + "\x00" + m[2]
		id, ok := defined[shape]
		if !ok {
			id = fmt.Sprintf("m%08x-%d", hash(prefix, "svg-marker"), len(defined))
			defined[shape] = id
			out = append(out, fmt.Sprintf(`<defs><path id="%s" d="%s" transform="scale(%s)"></path></defs>`, id, m[1], m[2]))
		}
		out = append(out, "<g "+m[6]+">")
		for ; i < j; i++ {
			n := svgMarker().FindStringSubmatch(lines[i])
			out = append(out, fmt.Sprintf(`<use xlink:href="#%s" x="%s" y="%s"/>`, id, n[4], n[5]))
		}
		out = append(out, "</g>")
	}
	return strings.Join(out, "\n")
}

// compactElements drops invisible paths, rounds transforms and simplifies
// long stroked lines.
func compactElements(svg string) string {
	var b strings.Builder
	b.Grow(len(svg))
	defs := 0         // depth inside elements whose children are not drawn as such
	var paints []bool // open groups: whether each sets a paint its children inherit
	inherited := 0
	last := 0
	re := svgElement()
	for _, m := range re.FindAllStringSubmatchIndex(svg, -1) {
		closing, name := svg[m[2]:m[3]] == "/", svg[m[4]:m[5]]
		attrs, selfClosing := svg[m[6]:m[7]], svg[m[8]:m[9]] == "/"
		switch name {
		case "defs", "clipPath", "mask", "pattern", "marker", "symbol":
			if closing {
				defs--
			} else if !selfClosing {
				defs++
			}
		}
		if name == "g" && !selfClosing {
			if closing && len(paints) > 0 {
				if paints[len(paints)-1] {
					inherited--
				}
				paints = paints[:len(paints)-1]
			} else if !closing {
				p := strings.Contains(attrs, "stroke") || strings.Contains(attrs, "fill")
				paints = append(paints, p)
				if p {
					inherited++
				}
			}
		}
		if closing {
			continue
		}
		if name == "path" && defs == 0 && inherited == 0 && invisible(attrs) {
			end := m[1]
			if !selfClosing && strings.HasPrefix(svg[end:], "</path>") {
				end += len("</path>")
			} else if !selfClosing {
				continue // a path with children: leave it
			}
			b.WriteString(svg[last:m[0]])
			if end < len(svg) && svg[end] == '\n' {
				end++
			}
			last = end
			continue
		}
		compacted := compactAttrs(name, attrs)
		if name == "text" && !selfClosing {
			compacted = dropPreserve(compacted, svg[m[1]:])
		}
		if compacted == attrs {
			continue
		}
		b.WriteString(svg[last:m[6]])
		b.WriteString(compacted)
		last = m[7]
	}
	b.WriteString(svg[last:])
	return b.String()
}

// dropPreserve drops xml:space="preserve" from a text element whose text
// (rest starts with it) has no spaces that default white-space handling
// would change: none leading, trailing or doubled, no tab or line break.
func dropPreserve(attrs, rest string) string {
	end := strings.Index(rest, "</text>")
	if end < 0 || !strings.Contains(attrs, ` xml:space="preserve"`) {
		return attrs
	}
	text := rest[:end]
	if text == "" || strings.ContainsAny(text, "<\t\n\r") || strings.Contains(text, "  ") ||
		strings.HasPrefix(text, " ") || strings.HasSuffix(text, " ") {
		return attrs
	}
	return strings.Replace(attrs, ` xml:space="preserve"`, "", 1)
}

// invisible tells a path that paints nothing: no fill and no stroke.
func invisible(attrs string) bool {
	return strings.Contains(attrs, ` fill="none"`) && !strings.Contains(attrs, "stroke") &&
		!strings.Contains(attrs, ` id="`) && !strings.Contains(attrs, "marker")
}

func compactAttrs(name, attrs string) string {
	attrs = svgTransform().ReplaceAllStringFunc(attrs, roundTransform)
	if name == "path" && strings.Contains(attrs, "stroke=") && strings.Contains(attrs, ` fill="none"`) {
		attrs = svgPathData().ReplaceAllStringFunc(attrs, func(d string) string {
			return ` d="` + simplifyPolyline(d[len(` d="`):len(d)-1]) + `"`
		})
	}
	return attrs
}

// roundTransform keeps three decimals of a matrix's linear part (enough for
// any rotation or scale of a figure's size) and one of its translation.
func roundTransform(t string) string {
	open := strings.IndexByte(t, '(')
	fn, args := t[:open], strings.Split(t[open+1:len(t)-1], ",")
	if fn == "translate" {
		args = strings.Fields(strings.ReplaceAll(t[open+1:len(t)-1], ",", " "))
	}
	out := make([]string, len(args))
	for i, a := range args {
		x, err := strconv.ParseFloat(strings.TrimSpace(a), 64)
		if err != nil {
			return t
		}
		decimals := 1
		if fn == "matrix" && i < 4 {
			decimals = 3
		}
		out[i] = strconv.FormatFloat(roundTo(x, decimals), 'f', -1, 64)
	}
	sep := ","
	if fn == "translate" {
		sep = " "
	}
	return fn + "(" + strings.Join(out, sep) + ")"
}

func roundTo(x float64, decimals int) float64 {
	p := math.Pow(10, float64(decimals))
	r := math.Round(x*p) / p
	if r == 0 {
		return 0 // no "-0"
	}
	return r
}

// simplifyPolyline drops the vertices of an M…L…L… line that lie within
// polylineTolerance of the line through their neighbours kept
// (Ramer–Douglas–Peucker); any other path is returned as it is.
func simplifyPolyline(d string) string {
	if !svgPolylineCmd().MatchString(d) {
		return d
	}
	parts := strings.Split(d[1:], "L")
	if len(parts) < polylineMinPoints {
		return d
	}
	pts := make([][2]float64, len(parts))
	for i, p := range parts {
		xy := strings.Fields(p)
		if len(xy) != 2 {
			return d
		}
		x, err1 := strconv.ParseFloat(xy[0], 64)
		y, err2 := strconv.ParseFloat(xy[1], 64)
		if err1 != nil || err2 != nil {
			return d
		}
		pts[i] = [2]float64{x, y}
	}
	keep := make([]bool, len(pts))
	keep[0], keep[len(pts)-1] = true, true
	rdp(pts, 0, len(pts)-1, keep)
	var b strings.Builder
	b.Grow(len(d))
	for i, p := range parts {
		if !keep[i] {
			continue
		}
		if b.Len() == 0 {
			b.WriteByte('M')
		} else {
			b.WriteByte('L')
		}
		b.WriteString(p)
	}
	return b.String()
}

// rdp marks in keep the vertices between i and j (exclusive) that the line
// needs, iteratively so that a long line cannot exhaust the stack.
func rdp(pts [][2]float64, i, j int, keep []bool) {
	stack := [][2]int{{i, j}}
	for len(stack) > 0 {
		seg := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		a, z := seg[0], seg[1]
		far, farDist := -1, polylineTolerance
		for k := a + 1; k < z; k++ {
			if dist := segmentDistance(pts[k], pts[a], pts[z]); dist > farDist {
				far, farDist = k, dist
			}
		}
		if far < 0 {
			continue
		}
		keep[far] = true
		stack = append(stack, [2]int{a, far}, [2]int{far, z})
	}
}

// segmentDistance is the distance from p to the segment from a to b.
func segmentDistance(p, a, b [2]float64) float64 {
	dx, dy := b[0]-a[0], b[1]-a[1]
	l2 := dx*dx + dy*dy
	t := 0.0
	if l2 > 0 {
		t = math.Max(0, math.Min(1, ((p[0]-a[0])*dx+(p[1]-a[1])*dy)/l2))
	}
	return math.Hypot(p[0]-a[0]-t*dx, p[1]-a[1]-t*dy)
}
