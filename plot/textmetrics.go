package plot

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
)

//go:generate go run ./internal/fontgen -o textmetrics_table.go /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf

// Figures are laid out in Go from measured text: titles, legends, panel
// headings, tick and value labels get the room their text needs at the
// width the figure is laid out for, so no layout depends on a browser. The
// measure is DejaVu Sans (textmetrics_table.go, generated from the font
// files), the sans-serif font of the Debian machines figures are drawn and
// checked on; it is wider than Helvetica, Arial and Liberation Sans, so
// text measured with it also fits where those draw the figure. The SVG
// renderer measures with the same table (see svg.go), so exports match.

// fontMetrics are a font's advance widths in font units, by code point.
type fontMetrics struct {
	unitsPerEm      float64
	ascent, descent float64
	runs            []widthRun // sorted, disjoint
}

// widthRun holds the widths of consecutive code points from first.
type widthRun struct {
	first  rune
	widths []uint16
}

// advance is r's width in ems; a code point the table lacks counts as one
// em, wider than any glyph of the kept blocks but the widest symbols, so
// text with unknown characters is over- rather than under-estimated.
func (m *fontMetrics) advance(r rune) float64 {
	if r == '\u2028' || r == '\u2029' {
		// The line and paragraph separators have no advance in the font,
		// but browsers lay them out as a space (Chromium 148 does).
		r = ' '
	}
	i := sort.Search(len(m.runs), func(i int) bool { return m.runs[i].first > r }) - 1
	if i >= 0 {
		if k := int(r - m.runs[i].first); k < len(m.runs[i].widths) {
			return float64(m.runs[i].widths[k]) / m.unitsPerEm
		}
	}
	return 1
}

// font is the size and weight of a piece of figure text.
type font struct {
	size float64 // CSS px
	bold bool
}

// Fonts of figure text, in CSS px. The smallest, 10 px, is 7.5 pt when a
// figure prints at its CSS size (96 px to the inch), above the 7 pt that
// journals ask for.
var (
	fontTitle    = font{16, true}
	fontText     = font{12, false}
	fontSmall    = font{11, false}
	fontSmallest = font{10, false}
	fontValue    = font{11, true}
)

func (f font) metrics() *fontMetrics {
	if f.bold {
		return &dejaVuSansBold
	}
	return &dejaVuSans
}

// width is the advance width of one line of s in px (kerning ignored: it
// only ever narrows DejaVu Sans' pairs).
func (f font) width(s string) float64 {
	m := f.metrics()
	var ems float64
	for _, r := range s {
		ems += m.advance(r)
	}
	return ems * f.size
}

// lineHeight is the height given to each line of text: the font's ascent
// plus descent (1.16 em for DejaVu Sans, the box a browser reports for a
// line) rounded up, so lines of one text never overlap.
func (f font) lineHeight() float64 {
	m := f.metrics()
	return float64(int(f.size*(m.ascent-m.descent)/m.unitsPerEm)) + 2
}

// widest is the width of the widest of lines.
func (f font) widest(lines []string) float64 {
	var w float64
	for _, l := range lines {
		w = max(w, f.width(l))
	}
	return w
}

// wrap breaks text into lines no wider than limit px: at existing line
// breaks, then between the " · " separated parts of a caption, then at
// spaces, then after hyphens, and as a last resort between characters.
func (f font) wrap(text string, limit float64) []string {
	var out []string
	for _, para := range strings.Split(text, "\n") {
		out = append(out, f.pack(splitAfter(para, " · "), limit, 0)...)
	}
	for i, line := range out { // a separator ends no line
		out[i] = strings.TrimSuffix(line, " ·")
	}
	return out
}

// breakers are the places pack tries, in order, inside a part too wide for
// a line.
var breakers = []string{" · ", " ", "-", "/", "_"}

// pack fills lines greedily with parts (each ending in its separator),
// splitting a part that alone is too wide at the next kind of break.
func (f font) pack(parts []string, limit float64, level int) []string {
	var lines []string
	cur := ""
	for _, p := range parts {
		if f.width(strings.TrimRight(cur+p, " ")) <= limit {
			cur += p
			continue
		}
		if cur != "" {
			lines = append(lines, strings.TrimRight(cur, " "))
			cur = ""
		}
		if f.width(strings.TrimRight(p, " ")) <= limit {
			cur = p
			continue
		}
		var sub []string
		if level+1 < len(breakers) {
			sub = f.pack(splitAfter(p, breakers[level+1]), limit, level+1)
		} else {
			sub = f.chars(p, limit)
		}
		lines = append(lines, sub[:len(sub)-1]...)
		cur = sub[len(sub)-1] + p[len(strings.TrimRight(p, " ")):] // the part's own trailing space
	}
	return append(lines, strings.TrimRight(cur, " "))
}

// chars breaks s between characters.
func (f font) chars(s string, limit float64) []string {
	var lines []string
	cur := ""
	for _, r := range s {
		if cur != "" && f.width(cur+string(r)) > limit {
			lines = append(lines, cur)
			cur = ""
		}
		cur += string(r)
	}
	return append(lines, cur)
}

// splitAfter splits s after each sep, keeping the separators.
func splitAfter(s, sep string) []string {
	if s == "" {
		return []string{""}
	}
	parts := strings.SplitAfter(s, sep)
	if parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

// cssFont reads the size and weight from a CSS font shorthand as zrender
// writes it ("bolder 16px sans-serif", "normal 400 12px Microsoft YaHei").
var cssFont = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^|\s)(\d+(?:\.\d+)?)px`) })

func parseCSSFont(css string) font {
	f := fontText
	if m := cssFont().FindStringSubmatch(css); m != nil {
		f.size, _ = strconv.ParseFloat(m[1], 64)
	}
	for _, w := range strings.Fields(css) {
		if n, err := strconv.Atoi(w); (err == nil && n >= 600) || w == "bold" || w == "bolder" {
			f.bold = true
		}
	}
	return f
}

// textWidthCSS measures one line as zrender asks: text and a CSS font.
func textWidthCSS(text, css string) float64 { return parseCSSFont(css).width(text) }
