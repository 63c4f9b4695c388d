package plot

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// A chart built in a cell with go-echarts' defaults puts its title, its
// legend and its y-axis name in the same corner: ECharts draws the title at
// the top left, the legend at the top centre and the grid 60 px down
// whatever either holds. arrangeChart lays such a chart out the way
// routelab's own figures are, from measured text and from the top down:
// the title (wrapped to the width), the subtitle, the legend in rows, then
// the plot area with room for the axis names. It only fills in what the
// chart leaves unset, so a position the user chose stays.

// toolboxBottom is where the interactive toolbox, at the top right, ends.
const toolboxBottom = 36.0

// arrangeChart places the unset parts of tree for a figure of width ×
// height px; interactive leaves room for the toolbox at the top right.
func arrangeChart(tree map[string]any, width, height float64, interactive bool) {
	y := 8.0
	room := width - 2*edge
	for i, t := range objects(tree["title"]) {
		if i > 0 || isSet(t, "top") || isSet(t, "bottom") || hidden(t) {
			continue
		}
		y = arrangeTitle(t, y, room, interactive && hasToolbox(tree))
	}
	series := seriesNames(tree)
	below := edge // what the plot area leaves under it
	for _, l := range objects(tree["legend"]) {
		switch {
		case hidden(l) || l["orient"] == "vertical":
		case l["top"] == "bottom" || (isSet(l, "bottom") && !isSet(l, "top")):
			below = max(below, edge+legendHeight(legendNames(tree, l, series), room)+gap)
		case !isSet(l, "top"):
			legendRoom := room
			if interactive && hasToolbox(tree) && y < toolboxBottom {
				legendRoom -= toolboxRoom // a first row beside the toolbox
			}
			y = arrangeLegend(l, legendNames(tree, l, series), y, legendRoom)
		}
	}
	for _, dz := range objects(tree["dataZoom"]) {
		if dz["type"] == "slider" && !hidden(dz) && dz["orient"] != "vertical" && interactive {
			below += sliderRoom
			break
		}
	}
	arrangeGrid(tree, y, below)
	arrangePies(tree, y, below, height)
}

// arrangePies centres pies that set no centre in the space under the title
// and legend, with a radius that leaves room for their outside labels.
func arrangePies(tree map[string]any, top, bottom, h float64) {
	if h <= top+bottom {
		return
	}
	for _, s := range objects(tree["series"]) {
		if s["type"] != "pie" || isSet(s, "center") {
			continue
		}
		room := h - top - bottom
		s["center"] = []any{"50%", num(top + room/2)}
		if !isSet(s, "radius") {
			// Outside labels take a label line and a line of text.
			s["radius"] = num(max(room/2-2*fontText.lineHeight()-8, room/4))
		}
	}
}

// arrangeTitle sets the title's font, position and wrapped lines, and
// returns the top of the space under it.
func arrangeTitle(t map[string]any, y, room float64, toolbox bool) float64 {
	text, _ := t["text"].(string)
	sub, _ := t["subtext"].(string)
	if text == "" && sub == "" {
		return y
	}
	titleRoom := room
	if toolbox {
		titleRoom -= toolboxRoom
	}
	t["top"], t["padding"], t["itemGap"] = num(y), num(0), num(2)
	if !isSet(t, "left") && !isSet(t, "right") {
		t["left"] = num(edge)
	}
	if text != "" {
		lines := fontTitle.wrap(text, titleRoom)
		t["text"] = strings.Join(lines, "\n")
		t["textStyle"] = withDefaults(t["textStyle"], map[string]any{"fontSize": num(fontTitle.size), "fontWeight": "bold", "lineHeight": num(fontTitle.lineHeight())})
		y += float64(len(lines)) * fontTitle.lineHeight()
	}
	if sub != "" {
		lines := fontText.wrap(sub, room)
		t["subtext"] = strings.Join(lines, "\n")
		t["subtextStyle"] = withDefaults(t["subtextStyle"], map[string]any{"fontSize": num(fontText.size), "lineHeight": num(fontText.lineHeight())})
		y += 2 + float64(len(lines))*fontText.lineHeight()
	}
	return y + gap
}

// arrangeLegend lays the legend out at the left in rows no wider than
// room, measured as layout.legend measures routelab's own, and returns the
// top of the space under it. ECharts breaks a plain legend into rows at
// its width, so giving it that width gives the rows measured here.
func arrangeLegend(l map[string]any, names []string, y, room float64) float64 {
	if len(names) == 0 {
		return y
	}
	l["top"], l["padding"], l["itemGap"] = num(y), num(0), num(legendGap)
	l["itemWidth"], l["itemHeight"] = num(legendIconW), num(legendIconH)
	l["type"] = "plain"
	if !isSet(l, "left") && !isSet(l, "right") {
		l["left"] = num(edge)
	}
	l["width"] = num(room)
	l["textStyle"] = withDefaults(l["textStyle"], map[string]any{"fontSize": num(fontText.size), "lineHeight": num(fontText.lineHeight())})
	return y + legendHeight(names, room) + gap
}

// legendHeight is the height of a legend of names in rows no wider than
// room, with routelab's legend sizes.
func legendHeight(names []string, room float64) float64 {
	rowH := max(legendIconH, fontText.lineHeight())
	rows, rowW := 1, 0.0
	for i, n := range names {
		w := legendIconW + 5 + fontText.width(n)
		if i > 0 && rowW+legendGap+w > room {
			rows, rowW = rows+1, 0
		} else if i > 0 {
			rowW += legendGap
		}
		rowW += w
	}
	// ECharts puts itemGap between rows too.
	return float64(rows)*rowH + float64(rows-1)*legendGap
}

// arrangeGrid puts the plot area under top, with room above it for the
// y-axis names, beside it for the x-axis names and inside it for the axis
// labels (containLabel), when the chart has axes and sets no grid place.
func arrangeGrid(tree map[string]any, top, bottom float64) {
	xs, ys := objects(tree["xAxis"]), objects(tree["yAxis"])
	if len(xs) == 0 && len(ys) == 0 {
		return
	}
	grids := objects(tree["grid"])
	if len(grids) > 1 {
		return // several plot areas: the chart lays them out itself
	}
	var g map[string]any
	if len(grids) == 1 {
		g = grids[0]
	} else {
		g = map[string]any{}
		tree["grid"] = g
	}
	nameRoom := 0.0
	for _, a := range ys {
		if name, _ := a["name"].(string); name != "" && !isSet(a, "nameLocation") {
			nameRoom = max(nameRoom, float64(strings.Count(name, "\n")+1)*fontText.lineHeight()+15)
			a["nameTextStyle"] = withDefaults(a["nameTextStyle"], map[string]any{"align": nameAlign(a)})
		}
	}
	right := edge + 4
	for _, a := range xs {
		if !hasCategories(a, true) {
			// containLabel leaves out the half of the last tick label that
			// passes the axis' end: room for one of six digits.
			right = max(right, edge+fontText.width("00,000")/2+2)
		}
		name, _ := a["name"].(string)
		lines := strings.Split(name, "\n")
		if name != "" && !isSet(a, "nameLocation") {
			// Centred under the tick labels, as routelab's own axes: at the
			// end of the axis it meets the last label.
			a["nameLocation"], a["nameGap"] = "middle", num(xNameGap())
		}
		switch {
		case name == "":
		case a["nameLocation"] == "end":
			right = max(right, fontText.widest(lines)+15+edge)
		case a["nameLocation"] == "middle" || a["nameLocation"] == "center":
			// Under the labels, which containLabel leaves out: ECharts
			// counts nameGap from the axis line, the labels 8 px from it.
			nameGap := 15.0
			if n, err := strconv.ParseFloat(fmt.Sprint(a["nameGap"]), 64); err == nil {
				nameGap = n
			}
			bottom += max(0, nameGap-8) + float64(len(lines))*fontText.lineHeight()
		}
	}
	if !isSet(g, "top") {
		g["top"] = num(top + nameRoom)
	}
	if !isSet(g, "left") && !isSet(g, "right") && !isSet(g, "width") {
		g["left"], g["right"] = num(edge), num(right)
	}
	if !isSet(g, "bottom") && !isSet(g, "height") {
		g["bottom"] = num(bottom)
	}
	if !isSet(g, "containLabel") {
		g["containLabel"] = true
	}
}

// nameAlign keeps a y-axis name over the plot area: from the axis to the
// right for a left axis, to the left for a right one.
func nameAlign(axis map[string]any) string {
	if axis["position"] == "right" {
		return "right"
	}
	return "left"
}

// legendNames are the entries a legend shows: its own data, else the
// series' names, or for charts whose legend lists data items (pie, funnel)
// the items' names.
func legendNames(tree, legend map[string]any, series []string) []string {
	var names []string
	if data, ok := legend["data"].([]any); ok && len(data) > 0 {
		for _, d := range data {
			switch v := d.(type) {
			case string:
				names = append(names, v)
			case map[string]any:
				if n, ok := v["name"].(string); ok {
					names = append(names, n)
				}
			}
		}
		return names
	}
	for _, s := range objects(tree["series"]) {
		switch s["type"] {
		case "pie", "funnel":
			items, _ := s["data"].([]any)
			for _, it := range items {
				if m, ok := it.(map[string]any); ok {
					if n, ok := m["name"].(string); ok {
						names = append(names, n)
					}
				}
			}
		}
	}
	if names != nil {
		return names
	}
	return series
}

func hasToolbox(tree map[string]any) bool {
	for _, t := range objects(tree["toolbox"]) {
		if !hidden(t) {
			return true
		}
	}
	return false
}

func hidden(m map[string]any) bool { return m["show"] == false }

// isSet tells whether the chart gave m a value for key (go-echarts leaves
// unset options out of the JSON, or writes them empty).
func isSet(m map[string]any, key string) bool {
	v, ok := m[key]
	if !ok || v == nil {
		return false
	}
	s, isString := v.(string)
	return !isString || s != ""
}

// num is x as the option tree holds numbers, to a tenth of a pixel.
func num(x float64) json.Number { return json.Number(strconv.FormatFloat(round(x, 1), 'f', -1, 64)) }

// withDefaults returns style with the defaults added where it has no value.
func withDefaults(style any, defaults map[string]any) map[string]any {
	out := map[string]any{}
	if m, ok := style.(map[string]any); ok {
		for k, v := range m {
			out[k] = v
		}
	}
	for k, v := range defaults {
		if !isSet(out, k) {
			out[k] = v
		}
	}
	return out
}

// copyTree copies an option tree deeply, so the interactive and the static
// option can be laid out for different widths.
func copyTree(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = copyTree(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = copyTree(e)
		}
		return out
	}
	return v
}
