package plot

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
)

// StudyHeatmap draws the exploration-weight study: a heat map of Adaptive's
// development attainment per weight (columns) and condition (rows), each
// cell the mean over the development seeds, on viridis (perceptually
// uniform, colour-blind safe, readable in greyscale), with a first row
// holding each weight's selection score (the mean over conditions) written
// with as many decimals as it takes to tell the weights apart; the selected
// weight's column is outlined in the accent colour, and the subtitle gives
// its margin over the runner-up with the margin's standard error and 95 %
// interval over the development seeds. Beside it (or under it, when
// narrow), each policy's mean attainment on the validation seeds with its
// standard error.
func StudyHeatmap(st *experiment.StudyResult, options ...Option) (*Figure, error) {
	if st == nil {
		return nil, errors.New("plot: nil study")
	}
	conds := st.Config.Conditions()
	weights := st.Config.Weights
	if len(conds) == 0 || len(weights) == 0 || len(st.Weights) != len(weights) {
		return nil, fmt.Errorf("plot: study %q has %d conditions, %d weights and %d weight scores; it needs conditions and a score per weight (a result of experiment.RunStudy)", st.Config.Name, len(conds), len(weights), len(st.Weights))
	}
	s, err := applyOptions(options, 1000)
	if err != nil {
		return nil, err
	}
	var validated []string
	for _, v := range st.Validation {
		validated = append(validated, v.Name)
	}
	title := "adaptive's attainment by exploration weight c"
	return s.build(figure{kind: "study", title: title, names: validated, chart: heatMapChart,
		draw: func(l *layout) (float64, error) { return drawStudy(l, st, conds, title) }})
}

// studyGeometry is the study figure's layout at one width.
type studyGeometry struct {
	rowLabels, cols []string
	sel             int
	labelW, colW    float64 // row label column, heat map column
	side            bool    // validation beside the heat map
	valLeft, valW   float64 // validation grid
	valX            float64 // validation block, names included
	valNames        []string
	valTicks        ticks
}

// Heat map rows, validation rows and the colour bar.
const (
	heatRowH = 22.0
	valRowH  = 30.0
	barH     = 12.0
)

func newStudyGeometry(l *layout, st *experiment.StudyResult, conds []experiment.Condition, c cells) *studyGeometry {
	g := &studyGeometry{rowLabels: []string{"all conditions (score)"}, sel: c.sel}
	for _, cd := range conds {
		g.rowLabels = append(g.rowLabels, fmt.Sprintf("%s · %s · %g/s", cd.Scenario, cd.Heterogeneity, cd.Rate))
	}
	for _, w := range st.Config.Weights {
		g.cols = append(g.cols, strconv.FormatFloat(w, 'g', -1, 64))
	}
	g.labelW = fontSmall.widest(g.rowLabels) + 8
	colMin := math.Max(36, math.Max(fontSmallest.widest(c.labels)+10, g.colLabelW()+10))
	for _, v := range st.Validation {
		g.valNames = append(g.valNames, v.Name)
	}
	nameW := fontText.widest(g.valNames) + 8
	room := l.w - 2*edge
	g.side = g.labelW+colMin*float64(len(g.cols))+32+nameW+140 <= room
	if g.side {
		g.colW = math.Min(90, (room-g.labelW-32-nameW-140)/float64(len(g.cols)))
		g.valLeft = edge + g.labelW + g.colW*float64(len(g.cols)) + 32 + nameW
	} else {
		g.colW = math.Min(110, (room-g.labelW)/float64(len(g.cols)))
		g.valLeft = edge + nameW
	}
	g.valW = l.w - edge - g.valLeft
	g.valX = g.valLeft - nameW
	g.valTicks = linearTicks(0, 100, g.valW, true, 5)
	return g
}

// colLabelW is the widest weight label, the selected one in bold with a
// check mark.
func (g *studyGeometry) colLabelW() float64 {
	w := fontText.widest(g.cols)
	if g.sel >= 0 {
		w = math.Max(w, font{fontText.size, true}.width(g.cols[g.sel]+" ✓"))
	}
	return w
}

func drawStudy(l *layout, st *experiment.StudyResult, conds []experiment.Condition, title string) (float64, error) {
	c := studyCells(st, conds)
	l.heading(title, studyCaption(st, c))
	g := newStudyGeometry(l, st, conds, c)
	heatTop := l.y + fontText.lineHeight() + xNameGap()
	heatH := heatRowH * float64(len(g.rowLabels))
	heatW := g.colW * float64(len(g.cols))
	l.add(charts.SingleSeries{Name: "development attainment", Type: "heatmap", XAxisIndex: 0, YAxisIndex: 0, Data: c.items,
		Label: &opts.Label{Show: opts.Bool(true), FontSize: float32(fontSmallest.size)}})
	barTop := heatTop + heatH + gap
	l.raw["visualMap"] = colourBar(c.lo, c.hi, edge, barTop, l.w-2*edge)
	bottom := barTop + barH + 4
	head := fontText.wrap(fmt.Sprintf("validation: mean attainment over %d seeds per condition, ± one standard error over seeds", len(st.Config.ValidationSeeds)), l.w-edge-g.valX)
	headH := float64(len(head)) * fontText.lineHeight()
	valTop := math.Max(heatTop, l.y+headH+6)
	if !g.side {
		valTop = bottom + gap + headH + 6
	}
	l.text(head, fontText, g.valX, valTop-headH-6, "")
	valH := valRowH * float64(len(g.valNames))
	l.rect.SetGlobalOptions(charts.WithGridOpts(gridAt(edge+g.labelW, heatTop, heatW, heatH, l.w), gridAt(g.valLeft, valTop, g.valW, valH, l.w)))
	l.raw["xAxis"] = []any{heatXAxis(g), g.valTicks.axis(1, "mean attainment (%)", map[string]any{"nameGap": xNameGap()})}
	l.raw["yAxis"] = []any{map[string]any{"type": "category", "gridIndex": 0, "data": strings2any(g.rowLabels), "inverse": true,
		"axisLabel": map[string]any{"interval": 0, "fontSize": fontSmall.size, "lineHeight": fontSmall.lineHeight()}, "splitArea": map[string]any{"show": false}},
		policyAxis(1, g.valNames, true)}
	l.raw["legend"] = map[string]any{"show": false}
	validationBars(l, st.Validation)
	l.tooltip("item", itemTooltip)
	return math.Max(bottom, valTop+valH+xFooter(1)) + edge, nil
}

// heatXAxis is the weights axis on top of the heat map, the selected
// weight in bold accent with a check mark.
func heatXAxis(g *studyGeometry) map[string]any {
	return map[string]any{"type": "category", "gridIndex": 0, "data": strings2any(g.cols), "position": "top",
		"name": "exploration weight c", "nameLocation": "middle", "nameGap": xNameGap(),
		"axisLabel": map[string]any{"interval": 0, "fontSize": fontText.size, "lineHeight": fontText.lineHeight(),
			"formatter": code(selectedLabel(g.cols, g.sel)),
			"rich":      map[string]any{"sel": map[string]any{"color": AccentColor, "fontWeight": "bold", "fontSize": fontText.size}}}}
}

// studyCaption names the study, says what a cell is, and gives the
// selected weight's margin over the next best.
func studyCaption(st *experiment.StudyResult, c cells) string {
	line := fmt.Sprintf("study %q · development: mean attainment over %d seeds per condition · colour: viridis",
		st.Config.Name, len(st.Config.DevelopmentSeeds))
	return line + "\n" + selectionLine(st, c.scoreDecimals)
}

// selectionLine says which weight was selected and by how much its score
// beats the runner-up's.
func selectionLine(st *experiment.StudyResult, d int) string {
	best, next := -1, -1
	for i, sc := range st.Weights {
		if !defined(sc.MeanAttainment) {
			continue
		}
		switch {
		case sc.C == st.SelectedC:
			best = i
		case next < 0 || sc.MeanAttainment > st.Weights[next].MeanAttainment:
			next = i
		}
	}
	if best < 0 {
		return fmt.Sprintf("selected c = %g", st.SelectedC)
	}
	line := fmt.Sprintf("selected c = %g: score %s%%", st.SelectedC, strconv.FormatFloat(100*st.Weights[best].MeanAttainment, 'f', d, 64))
	if next >= 0 {
		margin := 100 * (st.Weights[best].MeanAttainment - st.Weights[next].MeanAttainment)
		line += fmt.Sprintf(", %s pp above the next best, c = %g (%s%%)", strconv.FormatFloat(margin, 'f', d, 64), st.Weights[next].C,
			strconv.FormatFloat(100*st.Weights[next].MeanAttainment, 'f', d, 64))
	}
	if m := st.Margin; m != nil && defined(m.StdErr) && defined(m.CILow) && defined(m.CIHigh) {
		line += fmt.Sprintf("; margin over %d seeds: std err %s pp, 95 %% interval [%s, %s] pp (%s)", m.Seeds,
			strconv.FormatFloat(100*m.StdErr, 'f', 2, 64), signedPP(m.CILow), signedPP(m.CIHigh), m.Verdict())
	}
	return line
}

// signedPP writes a fraction in percentage points with its sign, to two
// decimals.
func signedPP(x float64) string {
	return strings.Replace(strconv.FormatFloat(100*x, 'f', 2, 64), "-", "−", 1)
}

// colourBar is the heat map's colour scale: viridis over [lo, hi], a bar
// of at most 160 px under the map with its ends' values beside it.
func colourBar(lo, hi, left, top, room float64) map[string]any {
	loText, hiText := fmt.Sprintf("%.1f%%  attainment", lo), fmt.Sprintf("%.1f%%", hi)
	length := math.Max(40, math.Min(160, room-fontText.width(loText)-fontText.width(hiText)-20))
	return map[string]any{"type": "continuous", "seriesIndex": 0, "dimension": 2, "min": lo, "max": hi, "calculable": false,
		"orient": "horizontal", "left": round(left, 1), "top": round(top, 1), "padding": 0, "textGap": 10,
		"itemWidth": barH, "itemHeight": length, "text": []any{hiText, loText},
		"textStyle": map[string]any{"fontSize": fontText.size, "lineHeight": fontText.lineHeight()},
		"inRange":   map[string]any{"color": strings2any(viridis)}}
}

// cells are the heat map's items, their label texts, the range of their
// values, the selected weight's column and the decimals of the score row.
type cells struct {
	items         []any
	labels        []string
	lo, hi        float64
	sel           int
	scoreDecimals int
}

// studyCells are the heat map's items: [weight, row, attainment %], the
// first row the selection score, the selected weight's cells outlined,
// each labelled in black or white, whichever reads on its colour.
func studyCells(st *experiment.StudyResult, conds []experiment.Condition) cells {
	c := cells{lo: math.Inf(1), hi: math.Inf(-1), sel: -1, scoreDecimals: scoreDecimals(st)}
	values := map[[2]int]float64{}
	tips := map[[2]int]string{}
	for wi, w := range st.Config.Weights {
		if w == st.SelectedC {
			c.sel = wi
		}
		sc := st.Weights[wi]
		values[[2]int{wi, 0}] = sc.MeanAttainment
		tips[[2]int{wi, 0}] = fmt.Sprintf("c = %g: selection score %s%%\n(mean over %d conditions, %d runs)", w,
			strconv.FormatFloat(100*sc.MeanAttainment, 'f', c.scoreDecimals, 64), len(conds), sc.Runs)
		for ci, cond := range conds {
			var att []float64
			for _, r := range st.Development {
				if r.C == w && r.Condition == cond && r.Result != nil {
					att = append(att, r.Result.Attainment)
				}
			}
			values[[2]int{wi, ci + 1}] = engine.Mean(att)
			tips[[2]int{wi, ci + 1}] = fmt.Sprintf("c = %g, %s\nmean attainment %s over %d seeds", w, cond, pct(engine.Mean(att)), len(att))
		}
	}
	for _, v := range values {
		if defined(v) {
			c.lo, c.hi = math.Min(c.lo, 100*v), math.Max(c.hi, 100*v)
		}
	}
	if math.IsInf(c.lo, 1) {
		c.lo, c.hi = 0, 100
	}
	c.lo, c.hi = math.Floor(c.lo), math.Max(math.Ceil(c.hi), math.Floor(c.lo)+1)
	for wi := range st.Config.Weights {
		for row := 0; row <= len(conds); row++ {
			c.add(wi, row, values[[2]int{wi, row}], tips[[2]int{wi, row}])
		}
	}
	return c
}

// add appends one cell (none when undefined: no cohort arrivals in any
// seed, no attainment).
func (c *cells) add(wi, row int, v float64, tip string) {
	if !defined(v) {
		return
	}
	d := 1
	if row == 0 {
		d = c.scoreDecimals
	}
	text := strconv.FormatFloat(100*v, 'f', d, 64)
	it := item([]any{wi, row, round(100*v, 4)}, tip)
	it["label"] = map[string]any{"formatter": text, "color": inkOn(viridisAt((100*v - c.lo) / (c.hi - c.lo)))}
	if wi == c.sel {
		it["itemStyle"] = map[string]any{"borderColor": AccentColor, "borderWidth": 2}
	}
	c.items = append(c.items, it)
	c.labels = append(c.labels, text)
}

// scoreDecimals is how many decimals the selection scores need for the
// selected weight's to differ from every other's (at least 1, at most 4).
func scoreDecimals(st *experiment.StudyResult) int {
	for d := 1; d < 4; d++ {
		distinct := true
		for _, a := range st.Weights {
			for _, b := range st.Weights {
				fa, fb := strconv.FormatFloat(100*a.MeanAttainment, 'f', d, 64), strconv.FormatFloat(100*b.MeanAttainment, 'f', d, 64)
				if a.C == st.SelectedC && b.C != a.C && fa == fb {
					distinct = false
				}
			}
		}
		if distinct {
			return d
		}
	}
	return 4
}

// selectedLabel marks the selected weight's column label.
func selectedLabel(cols []string, sel int) string {
	if sel < 0 {
		return `function (v) { return v; }`
	}
	return `function (v) { return v === ` + jsString(cols[sel]) + ` ? "{sel|" + v + " ✓}" : v; }`
}

// validationBars adds one bar per validated policy, labelled with as many
// decimals as it takes to tell the policies apart.
func validationBars(l *layout, scores []experiment.Score) {
	d := 1
	for d < 3 && !distinctAt(scores, d) {
		d++
	}
	for i, sc := range scores {
		data := make([]any, len(scores))
		for k := range data {
			data[k] = "-"
		}
		label := ""
		if defined(sc.MeanAttainment) {
			tip := fmt.Sprintf("mean attainment %s over %d runs", pct(sc.MeanAttainment), sc.Runs)
			if defined(sc.C) {
				tip += fmt.Sprintf(" (c = %g)", sc.C)
			}
			label = strconv.FormatFloat(100*sc.MeanAttainment, 'f', d, 64) + "%"
			if defined(sc.StdErr) {
				se := strconv.FormatFloat(100*sc.StdErr, 'f', 2, 64)
				tip += fmt.Sprintf(", std err %s pp over seeds", se)
				label += " ± " + se + " pp"
			}
			data[i] = map[string]any{"value": round(100*sc.MeanAttainment, 4), "tip": tip}
		}
		color := l.color(sc.Name)
		l.add(charts.SingleSeries{Name: sc.Name, Type: "bar", XAxisIndex: 1, YAxisIndex: 1, Stack: "validation",
			BarWidth: "56%", ItemStyle: &opts.ItemStyle{Color: tint(color, 0.12), BorderColor: color, BorderWidth: 1},
			Label: &opts.Label{Show: opts.Bool(label != ""), Position: "insideLeft", Formatter: label,
				FontSize: float32(fontValue.size), FontWeight: "bold", Color: color},
			Data: data})
	}
}

// distinctAt tells whether the scores differ at d decimals (in percent).
func distinctAt(scores []experiment.Score, d int) bool {
	seen := map[string]bool{}
	for _, sc := range scores {
		t := strconv.FormatFloat(100*sc.MeanAttainment, 'f', d, 64)
		if seen[t] {
			return false
		}
		seen[t] = true
	}
	return true
}
