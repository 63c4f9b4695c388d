package plot

import (
	"fmt"
	"math"
	"strconv"
)

// Value axes get their ticks here, not from ECharts: the bounds, the
// interval and every label's text are chosen in Go from the measured width
// of the labels and the length of the axis at the width the figure is laid
// out for, so labels never run together ("10,0000") and the layout can
// leave room for the widest one.

// ticks are a value axis' bounds, interval and labels.
type ticks struct {
	min, max, interval float64
	log                bool
	decimals           int
	labels             []string
}

// tickFormatter writes a tick rounded to d decimals, without trailing
// zeros, whole thousands as "k", as tickLabel does in Go for the layout.
const tickFormatter = `function (v) { v = +(+v).toFixed(%d); return v >= 1000 && v %% 1000 === 0 ? (v / 1000) + "k" : String(v); }`

// logFormatter labels every n-th decade from 10^a the same way.
const logFormatter = `function (v) { var e = Math.round(Math.log(v) / Math.LN10); v = +(+v).toFixed(%d);
  return (e - %d) %% %d !== 0 ? "" : v >= 1000 && v %% 1000 === 0 ? (v / 1000) + "k" : String(v); }`

// tickLabel is v as the formatters write it.
func tickLabel(v float64, d int) string {
	v = round(v, d)
	if v >= 1000 && math.Mod(v, 1000) == 0 {
		return strconv.FormatFloat(v/1000, 'f', -1, 64) + "k"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// niceSteps are the intervals tried, times a power of ten.
var niceSteps = []float64{1, 2, 2.5, 5}

// linearTicks covers [lo, hi] with round ticks whose labels fit along an
// axis of length px: horizontally (side by side, clear of each other) or
// vertically (one line each). It takes the finest interval that fits in at
// most maxTicks intervals and overshoots [lo, hi] by no more than 5% of
// its span, or failing that the finest that fits, or failing that the
// coarsest.
func linearTicks(lo, hi, px float64, horizontal bool, maxTicks int) ticks {
	if !(hi > lo) {
		hi = lo + 1
	}
	var loose *ticks
	var t ticks
	for e := math.Floor(math.Log10((hi-lo)/float64(maxTicks))) - 1; e <= math.Ceil(math.Log10(hi-lo)); e++ {
		for _, m := range niceSteps {
			t = stepTicks(lo, hi, m*math.Pow(10, e))
			if len(t.labels) > maxTicks+1 || !t.fits(px, horizontal) {
				continue
			}
			if t.min >= lo-0.05*(hi-lo) && t.max <= hi+0.05*(hi-lo) {
				return t
			}
			if loose == nil {
				first := t
				loose = &first
			}
		}
	}
	if loose != nil {
		return *loose
	}
	return t // the coarsest: two ticks, even if they do not fit
}

// stepTicks is lo..hi rounded out to multiples of step.
func stepTicks(lo, hi, step float64) ticks {
	d := max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	if m := step / math.Pow(10, math.Floor(math.Log10(step)+1e-9)); m == 2.5 {
		d++
	}
	t := ticks{min: math.Floor(lo/step+1e-9) * step, max: math.Ceil(hi/step-1e-9) * step, interval: step, decimals: d}
	for k := 0; ; k++ {
		v := t.min + float64(k)*step
		if v > t.max+step*1e-6 {
			break
		}
		t.labels = append(t.labels, tickLabel(v, d))
	}
	t.min, t.max = round(t.min, d), round(t.max, d)
	return t
}

// fits tells whether the labels, evenly spaced over px, keep clear of one
// another.
func (t ticks) fits(px float64, horizontal bool) bool {
	if len(t.labels) < 2 {
		return true
	}
	step := px / float64(len(t.labels)-1)
	if !horizontal {
		return step >= fontText.lineHeight()+4
	}
	for i := 1; i < len(t.labels); i++ {
		if (fontText.width(t.labels[i-1])+fontText.width(t.labels[i]))/2+10 > step {
			return false
		}
	}
	return true
}

// logTicks covers [lo, hi] (lo > 0) with powers of ten, one label per
// decade where they fit along px, else every second or third decade.
func logTicks(lo, hi, px float64, horizontal bool) ticks {
	a, b := math.Floor(math.Log10(lo)+1e-9), math.Ceil(math.Log10(hi)-1e-9)
	if b <= a {
		b = a + 1
	}
	t := ticks{min: math.Pow(10, a), max: math.Pow(10, b), log: true, decimals: max(0, -int(a))}
	for every := 1.0; ; every++ {
		t.labels, t.interval = nil, every
		for e := a; e <= b; e++ {
			label := ""
			if int(e-a)%int(every) == 0 {
				label = tickLabel(math.Pow(10, e), t.decimals)
			}
			t.labels = append(t.labels, label)
		}
		if t.fits(px, horizontal) || every >= b-a {
			return t
		}
	}
}

// px is where v falls on an axis of length length.
func (t ticks) px(v, length float64) float64 {
	if t.log {
		return (math.Log10(v) - math.Log10(t.min)) / (math.Log10(t.max) - math.Log10(t.min)) * length
	}
	return (v - t.min) / (t.max - t.min) * length
}

// widest is the width of the widest label.
func (t ticks) widest() float64 { return fontText.widest(t.labels) }

// first and last are the widths of the end labels.
func (t ticks) first() float64 { return fontText.width(t.labels[0]) }
func (t ticks) last() float64  { return fontText.width(t.labels[len(t.labels)-1]) }

// axis writes the ticks into an ECharts value or log axis.
func (t ticks) axis(grid int, name string, extra map[string]any) map[string]any {
	typ := "value"
	extra2 := map[string]any{"min": t.min, "max": t.max}
	label := map[string]any{"fontSize": fontText.size, "lineHeight": fontText.lineHeight(),
		"formatter": code(fmt.Sprintf(tickFormatter, t.decimals))}
	if t.log {
		typ = "log"
		extra2["logBase"] = 10
		extra2["splitNumber"] = int(math.Round(math.Log10(t.max / t.min)))
		label["formatter"] = code(fmt.Sprintf(logFormatter, t.decimals, int(math.Round(math.Log10(t.min))), int(t.interval)))
	} else {
		extra2["interval"] = t.interval
	}
	extra2["axisLabel"] = label
	for k, v := range extra {
		extra2[k] = v
	}
	return valueAxis(grid, typ, name, extra2)
}
