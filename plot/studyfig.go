package plot

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/routelab/routelab/engine"
)

// StudyHeatmap draws the exploration-weight study: a heat map of Adaptive's
// development attainment per weight (columns) and condition (rows), each
// cell the mean over the development seeds, with a first row holding each
// weight's selection score (the mean over conditions); the selected weight's
// column is outlined in the accent colour. Beside it, each policy's mean
// attainment on the validation seeds.
func StudyHeatmap(st *engine.StudyResult, options ...Option) (*Figure, error) {
	if st == nil {
		return nil, errors.New("plot: nil study")
	}
	conds := st.Config.Conditions()
	weights := st.Config.Weights
	if len(conds) == 0 || len(weights) == 0 || len(st.Weights) != len(weights) {
		return nil, fmt.Errorf("plot: study %q has %d conditions, %d weights and %d weight scores; it needs conditions and a score per weight (a result of engine.RunStudy)", st.Config.Name, len(conds), len(weights), len(st.Weights))
	}
	rows := len(conds) + 1
	s, err := applyOptions(options, 1000, max(440, 190+22*rows))
	if err != nil {
		return nil, err
	}
	hm := charts.NewHeatMap()
	var validated []string
	for _, v := range st.Validation {
		validated = append(validated, v.Name)
	}
	cv := newCanvas(hm, &hm.RectChart, "study", s, validated)
	hm.SetGlobalOptions(charts.WithGridOpts(
		opts.Grid{Left: "190", Width: "42%", Top: "96", Bottom: "84"},
		opts.Grid{Left: "77%", Width: "19%", Top: "96", Height: strconv.Itoa(40 * max(len(st.Validation), 1))}))
	cols := make([]string, len(weights))
	sel := -1
	for i, w := range weights {
		cols[i] = strconv.FormatFloat(w, 'g', -1, 64)
		if w == st.SelectedC {
			sel = i
		}
	}
	labels := []string{"all conditions (score)"}
	for _, c := range conds {
		labels = append(labels, fmt.Sprintf("%s · %s · %g/s", c.Scenario, c.Heterogeneity, c.Rate))
	}
	cells, lo, hi := studyCells(st, conds, sel)
	cv.add(charts.SingleSeries{Name: "development attainment", Type: "heatmap", XAxisIndex: 0, YAxisIndex: 0, Data: cells,
		Label: &opts.Label{Show: opts.Bool(true), Color: "#1f2328", FontSize: 10,
			Formatter: string(opts.FuncOpts(`function (p) { return p.value[2].toFixed(1); }`))}})
	names := validationBars(cv, st.Validation)
	cv.raw["xAxis"] = []any{
		map[string]any{"type": "category", "gridIndex": 0, "data": strings2any(cols), "position": "top",
			"name": "exploration weight c", "nameLocation": "middle", "nameGap": 24,
			"axisLabel": map[string]any{"interval": 0, "formatter": string(opts.FuncOpts(selectedLabel(cols, sel))),
				"rich": map[string]any{"sel": map[string]any{"color": AccentColor, "fontWeight": "bold"}}}},
		valueAxis(1, "value", "mean attainment (%)", map[string]any{"min": 0, "max": 100, "nameGap": 26}),
	}
	cv.raw["yAxis"] = []any{
		map[string]any{"type": "category", "gridIndex": 0, "data": strings2any(labels), "inverse": true,
			"axisLabel": map[string]any{"interval": 0, "fontSize": 11}, "splitArea": map[string]any{"show": false}},
		policyAxis(1, names, true),
	}
	cv.raw["legend"] = map[string]any{"show": false}
	cv.raw["visualMap"] = map[string]any{"type": "continuous", "seriesIndex": 0, "dimension": 2,
		"min": lo, "max": hi, "calculable": false, "orient": "horizontal", "left": "190", "bottom": "8",
		"itemWidth": 12, "itemHeight": 160, "text": []any{fmt.Sprintf("%.1f%%", hi), fmt.Sprintf("%.1f%%  attainment", lo)},
		"inRange": map[string]any{"color": []any{"#f4b9a8", "#f8e3a1", "#b7e4c7", "#74c69d"}}}
	cv.tooltip("item", itemTooltip)
	title := "adaptive's attainment by exploration weight c"
	sub := fmt.Sprintf("study %q · development: mean over %d seeds per condition · selected c = %g (highest score)",
		st.Config.Name, len(st.Config.DevelopmentSeeds), st.SelectedC)
	cv.titles(title, sub, panelTitle(fmt.Sprintf("validation: %d seeds per condition", len(st.Config.ValidationSeeds)), "77%", 72))
	return cv.figure(title)
}

// studyCells are the heat map's items: [weight, row, attainment %], the
// first row the selection score, the selected weight's cells outlined.
func studyCells(st *engine.StudyResult, conds []engine.Condition, sel int) (cells []any, lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	cell := func(wi, row int, v float64, tip string) {
		if !defined(v) {
			return // no cohort arrivals in any seed: no attainment
		}
		lo, hi = math.Min(lo, 100*v), math.Max(hi, 100*v)
		it := item([]any{wi, row, round(100*v, 1)}, tip)
		if wi == sel {
			it["itemStyle"] = map[string]any{"borderColor": AccentColor, "borderWidth": 2}
		}
		cells = append(cells, it)
	}
	for wi, w := range st.Config.Weights {
		sc := st.Weights[wi]
		cell(wi, 0, sc.MeanAttainment, fmt.Sprintf("c = %g: selection score %s\n(mean over %d conditions, %d runs)", w, pct(sc.MeanAttainment), len(conds), sc.Runs))
		for ci, cond := range conds {
			var att []float64
			for _, r := range st.Development {
				if r.C == w && r.Condition == cond && r.Result != nil {
					att = append(att, r.Result.Attainment)
				}
			}
			cell(wi, ci+1, engine.Mean(att), fmt.Sprintf("c = %g, %s\nmean attainment %s over %d seeds", w, cond, pct(engine.Mean(att)), len(att)))
		}
	}
	if math.IsInf(lo, 1) {
		lo, hi = 0, 100
	}
	return cells, math.Floor(lo), math.Ceil(hi)
}

// selectedLabel marks the selected weight's column label.
func selectedLabel(cols []string, sel int) string {
	if sel < 0 {
		return `function (v) { return v; }`
	}
	return `function (v) { return v === ` + jsString(cols[sel]) + ` ? "{sel|" + v + " ✓}" : v; }`
}

// validationBars adds one bar per validated policy and returns their names.
func validationBars(cv *canvas, scores []engine.Score) []string {
	names := make([]string, len(scores))
	for i, sc := range scores {
		names[i] = sc.Name
	}
	for i, sc := range scores {
		data := make([]any, len(scores))
		for k := range data {
			data[k] = "-"
		}
		if defined(sc.MeanAttainment) {
			tip := fmt.Sprintf("mean attainment %s over %d runs", pct(sc.MeanAttainment), sc.Runs)
			if defined(sc.C) {
				tip += fmt.Sprintf(" (c = %g)", sc.C)
			}
			data[i] = map[string]any{"value": round(100*sc.MeanAttainment, 3), "tip": tip}
		}
		color := cv.color(sc.Name)
		cv.add(charts.SingleSeries{Name: sc.Name, Type: "bar", XAxisIndex: 1, YAxisIndex: 1, Stack: "validation",
			BarWidth: "56%", ItemStyle: &opts.ItemStyle{Color: tint(color, 0.12), BorderColor: color, BorderWidth: 1},
			Label: &opts.Label{Show: opts.Bool(true), Position: "insideLeft", Formatter: pct(sc.MeanAttainment),
				FontSize: 11, FontWeight: "bold", Color: color},
			Data: data})
	}
	return names
}
