package plot

import "math"

// pxMarks are data marks in a grid's pixels (x from the left, y from the
// top): line segments and boxes, each as x0, y0, x1, y1.
type pxMarks struct {
	segs, boxes [][4]float64
}

// hits reports whether a mark meets the rectangle [x0, x1] × [y0, y1].
func (m pxMarks) hits(x0, y0, x1, y1 float64) bool {
	for _, b := range m.boxes {
		if math.Min(x1, math.Max(b[0], b[2])) > math.Max(x0, math.Min(b[0], b[2])) &&
			math.Min(y1, math.Max(b[1], b[3])) > math.Max(y0, math.Min(b[1], b[3])) {
			return true
		}
	}
	for _, s := range m.segs {
		if segmentHits(s[0], s[1], s[2], s[3], x0, y0, x1, y1) {
			return true
		}
	}
	return false
}

// segmentHits reports whether the segment (x1, y1)–(x2, y2) passes
// through the rectangle [l, r] × [t, b] (Liang–Barsky clipping). An empty
// rectangle meets nothing.
func segmentHits(x1, y1, x2, y2, l, t, r, b float64) bool {
	if l >= r || t >= b {
		return false
	}
	dx, dy := x2-x1, y2-y1
	lo, hi := 0.0, 1.0
	for _, c := range [][2]float64{{-dx, x1 - l}, {dx, r - x1}, {-dy, y1 - t}, {dy, b - y1}} {
		p, q := c[0], c[1]
		if p == 0 {
			if q < 0 {
				return false
			}
			continue
		}
		if u := q / p; p < 0 {
			lo = math.Max(lo, u)
		} else {
			hi = math.Min(hi, u)
		}
		if lo > hi {
			return false
		}
	}
	return true
}

// ruleLabel labels a horizontal rule at value y (yPx px from the grid's
// top) on a grid pw px wide whose x axis is x: at the rule's right end
// above it, else below it, else at its left end above, else below —
// the first place no data mark of marks meets (2 px apart). With none
// free it keeps the first.
func ruleLabel(text string, x ticks, y, yPx, pw float64, marks pxMarks) placed {
	w, h := fontSmallest.width(text), fontSmallest.lineHeight()
	p := placed{x: x.max, y: y, dx: -4, dy: -h - 1, lines: []string{text}, font: fontSmallest, align: "right", color: neutral}
	for _, c := range []struct {
		left, below bool
	}{{false, false}, {false, true}, {true, false}, {true, true}} {
		x0, dy := pw-4-w, -h-1
		if c.left {
			x0 = 4
		}
		if c.below {
			dy = 2
		}
		if !marks.hits(x0-2, yPx+dy-2, x0+w+2, yPx+dy+h+2) {
			p.dy = dy
			if c.left {
				p.x, p.dx, p.align = x.min, 4, "left"
			}
			return p
		}
	}
	return p
}
