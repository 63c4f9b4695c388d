package plot

import "testing"

// TestSegmentHits checks the clipping test that both ruleLabel and the
// browser layout test rely on, against cases whose answer is geometry.
func TestSegmentHits(t *testing.T) {
	for _, c := range []struct {
		name           string
		x1, y1, x2, y2 float64
		want           bool
	}{
		{"through the middle", -5, 5, 15, 5, true},
		{"diagonal through", -1, -1, 11, 11, true},
		{"ends inside", 5, 5, 20, 20, true},
		{"wholly inside", 2, 2, 3, 3, true},
		{"above", -5, -1, 15, -1, false},
		{"left of it, vertical", -1, -5, -1, 15, false},
		{"diagonal that misses the corner", 8, -5, 15, 2, false},
		{"stops short", -10, 5, -1, 5, false},
	} {
		if got := segmentHits(c.x1, c.y1, c.x2, c.y2, 0, 0, 10, 10); got != c.want {
			t.Errorf("%s: segmentHits = %v, want %v", c.name, got, c.want)
		}
	}
	if segmentHits(-5, 5, 15, 5, 3, 0, 3, 10) {
		t.Error("a rectangle of no width is met")
	}
}

// TestRuleLabelAvoidsMarks checks that an SLO label sits above the rule's
// right end when nothing is there, and goes to the left end when a line
// crosses the rule's right end both above and below.
func TestRuleLabelAvoidsMarks(t *testing.T) {
	x := ticks{min: 0, max: 100}
	free := ruleLabel("SLO 50 ms", x, 50, 100, 400, pxMarks{})
	blocked := ruleLabel("SLO 50 ms", x, 50, 100, 400, pxMarks{segs: [][4]float64{{300, 60, 400, 140}}})
	if free.align != "right" || free.dy >= 0 || free.x != x.max {
		t.Errorf("with no marks the label is not above the right end: %+v", free)
	}
	if blocked.align != "left" || blocked.x != x.min {
		t.Errorf("a line through the rule's right end did not move its label to the left end: %+v", blocked)
	}
}
