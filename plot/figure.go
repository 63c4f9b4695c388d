package plot

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/go-echarts/go-echarts/v2/charts"
)

// Chart is what every go-echarts v2.6.7 chart (*charts.Bar, *charts.Line,
// *charts.Scatter, *charts.HeatMap, ...) provides.
type Chart interface {
	Type() string
	Validate()
	JSON() map[string]any
}

// Theme selects the ECharts theme a figure is drawn with.
type Theme string

const (
	// ThemeAuto follows the page: dark when the notebook front end or the
	// page around the figure is dark, light otherwise. Exports use light.
	ThemeAuto Theme = "auto"
	// ThemeLight is ECharts' default theme.
	ThemeLight Theme = "light"
	// ThemeDark is ECharts' built-in dark theme.
	ThemeDark Theme = "dark"
)

// Spec says how to turn a chart into a Figure.
type Spec struct {
	// ID names the figure: it seeds the element ids of its HTML and the ids
	// inside its SVG. Required: letters, digits, '-' and '_', starting with
	// a letter, at most 64 characters. Nothing here is ever clock-seeded.
	ID string
	// Title is the figure's title. It becomes the chart's title when the
	// chart has none; when empty, the chart's own title is used.
	Title string
	// Theme defaults to ThemeAuto (or ThemeDark for a chart initialised
	// with go-echarts' "dark" theme).
	Theme Theme
	// Width and Height are the size in CSS pixels used by SVG and PNG
	// exports; HTML output takes the full width available and this height.
	// Zero takes the chart's own pixel size, else 900×500.
	Width, Height int
	// Palette colours the series by name; nil means DefaultPalette().
	Palette *Palette
	// SVG is the renderer used by the SVG method; nil means a one-off
	// renderer per call (correct, but it loads the library each time).
	SVG *SVGRenderer
}

// String describes the spec; the palette and renderer by what they are.
func (s Spec) String() string {
	return fmt.Sprintf("figure spec %q: title %q, theme %q, %d×%d (0: the chart's own or 900×500); %s; %s",
		s.ID, s.Title, string(s.Theme), s.Width, s.Height, s.Palette, s.SVG)
}

// Figure is a chart ready to show: its ECharts option, fixed at New, plus an
// id, a title, a theme and a size. A Figure is immutable and safe for
// concurrent use. It shows itself in notebooks (HTML, SVG) and exports to
// standalone pages, SVG, PNG and PDF without any network access.
//
// A figure holds two options. The interactive one (HTML output) has the
// toolbox, tooltips and zoom controls and is laid out to hold at any
// container width from the narrower of its export width and 640 px up;
// the static one (exports) has no controls and is laid out for the export
// width exactly. Figures made by New from a chart get routelab's layout
// where the chart leaves positions unset: title, subtitle and legend rows
// from the top down, measured, and the plot area under them with room for
// the axis names and labels.
type Figure struct {
	id, title, kind string
	theme           Theme
	width, height   int // export size
	htmlHeight      int // height of the HTML container
	series          []string
	optionJSON      []byte
	optionJS        string
	staticJS        string
	key             string
	svg             *SVGRenderer
	pngScale        float64
	light           bool
	caption         string
}

const (
	defaultWidth  = 900
	defaultHeight = 500
	minSide       = 50
	maxSide       = 8192
)

var errNilFigure = errors.New("plot: nil figure")

// validID and the package's other regular expressions are compiled on first
// use: package initialisation is paid by every routelab process.
var validID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,63}$`) })

// New makes a Figure from a go-echarts chart. It reads the chart once (the
// chart may be changed or reused afterwards without affecting the figure)
// and works around go-echarts 2.6.7's defects; see docs/plotting.md.
func New(chart Chart, spec Spec) (*Figure, error) { return newFigure(chart, spec, true) }

// newFigure is New; arrange lays out what the chart leaves unset (a chart
// from a cell), which routelab's own figures, laid out already, skip.
func newFigure(chart Chart, spec Spec, arrange bool) (*Figure, error) {
	if chart == nil || (reflect.ValueOf(chart).Kind() == reflect.Pointer && reflect.ValueOf(chart).IsNil()) {
		return nil, fmt.Errorf("plot: figure %q has no chart", spec.ID)
	}
	if !validID().MatchString(spec.ID) {
		return nil, fmt.Errorf("plot: figure id %q is not allowed: use 1-64 letters, digits, '-' or '_', starting with a letter (for example \"latency-cdf\")", spec.ID)
	}
	bc, err := baseOf(chart)
	if err != nil {
		return nil, err
	}
	theme, err := resolveTheme(spec.Theme, bc.Initialization.Theme)
	if err != nil {
		return nil, fmt.Errorf("plot: figure %q: %w", spec.ID, err)
	}
	width, height, err := resolveSize(spec, bc)
	if err != nil {
		return nil, fmt.Errorf("plot: figure %q: %w", spec.ID, err)
	}
	pal := spec.Palette
	if pal == nil {
		pal = DefaultPalette()
	}
	opt, err := buildOption(chart, bc, spec.Title, pal)
	if err != nil {
		return nil, fmt.Errorf("plot: figure %q: %w", spec.ID, err)
	}
	f := &Figure{
		id: spec.ID, title: opt.title, kind: chart.Type(), theme: theme,
		width: width, height: height, htmlHeight: height, series: opt.series, svg: spec.SVG, pngScale: defaultPNGScale,
	}
	static := staticTree(opt.tree)
	if arrange {
		static = copyTree(static).(map[string]any)
		arrangeChart(opt.tree, float64(min(width, minHTMLWidth)), float64(height), true)
		arrangeChart(static, float64(width), float64(height), false)
	}
	if f.optionJSON, err = encodeJSON(opt.tree); err != nil {
		return nil, fmt.Errorf("plot: figure %q: %w", spec.ID, err)
	}
	if f.optionJS, err = encodeJS(opt.tree); err != nil {
		return nil, fmt.Errorf("plot: figure %q: %w", spec.ID, err)
	}
	if f.staticJS, err = encodeJS(static); err != nil {
		return nil, fmt.Errorf("plot: figure %q: %w", spec.ID, err)
	}
	f.setKey()
	return f, nil
}

// withStatic makes a figure whose HTML shows interactive (htmlHeight px
// high) and whose exports draw static, a chart laid out for the export
// size in spec.
func withStatic(interactive, static Chart, htmlHeight int, spec Spec) (*Figure, error) {
	f, err := newFigure(interactive, spec, false)
	if err != nil {
		return nil, err
	}
	bc, err := baseOf(static)
	if err != nil {
		return nil, err
	}
	pal := spec.Palette
	if pal == nil {
		pal = DefaultPalette()
	}
	opt, err := buildOption(static, bc, f.title, pal)
	if err != nil {
		return nil, fmt.Errorf("plot: figure %q: %w", spec.ID, err)
	}
	if f.staticJS, err = encodeJS(staticTree(opt.tree)); err != nil {
		return nil, fmt.Errorf("plot: figure %q: %w", spec.ID, err)
	}
	f.htmlHeight = htmlHeight
	f.setKey()
	return f, nil
}

// setKey derives the key that names the figure's elements from everything
// that is drawn.
func (f *Figure) setKey() {
	sum := sha256.Sum256(fmt.Appendf(nil, "%s\x00%s\x00%d\x00%d\x00%d\x00%s\x00%s", f.id, f.theme, f.width, f.height, f.htmlHeight, f.optionJS, f.staticJS))
	f.key = hex.EncodeToString(sum[:6])
}

// baseOf finds the go-echarts configuration embedded in every chart type.
func baseOf(chart Chart) (*charts.BaseConfiguration, error) {
	v := reflect.ValueOf(chart)
	if v.Kind() == reflect.Pointer && v.Elem().Kind() == reflect.Struct {
		if f := v.Elem().FieldByName("BaseConfiguration"); f.IsValid() && f.CanAddr() {
			if bc, ok := f.Addr().Interface().(*charts.BaseConfiguration); ok {
				return bc, nil
			}
		}
	}
	return nil, fmt.Errorf("plot: %T is not a go-echarts chart (want *charts.Bar, *charts.Line, ...)", chart)
}

func resolveTheme(t Theme, chartTheme string) (Theme, error) {
	switch t {
	case ThemeAuto, ThemeLight, ThemeDark:
		return t, nil
	case "":
	default:
		return "", fmt.Errorf("theme %q is not one of auto, light, dark", t)
	}
	switch chartTheme {
	case "", "white":
		return ThemeAuto, nil
	case "dark":
		return ThemeDark, nil
	}
	return "", fmt.Errorf("chart theme %q would load a theme file from the network; use Spec.Theme (auto, light or dark) instead", chartTheme)
}

func resolveSize(spec Spec, bc *charts.BaseConfiguration) (int, int, error) {
	w, h := spec.Width, spec.Height
	if w == 0 {
		w = pixels(bc.Initialization.Width, defaultWidth)
	}
	if h == 0 {
		h = pixels(bc.Initialization.Height, defaultHeight)
	}
	if w < minSide || w > maxSide || h < minSide || h > maxSide {
		return 0, 0, fmt.Errorf("size %d×%d is outside %d–%d pixels per side", w, h, minSide, maxSide)
	}
	return w, h, nil
}

// pixels reads go-echarts' "900px" sizes; anything else gives def.
func pixels(s string, def int) int {
	n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(s), "px"))
	if err != nil || n <= 0 {
		return def
	}
	return n
}

// ID returns the figure's id.
func (f *Figure) ID() string { return f.id }

// Title returns the figure's title ("" when neither the spec nor the chart
// gave one).
func (f *Figure) Title() string { return f.title }

// Theme returns the figure's theme.
func (f *Figure) Theme() Theme { return f.theme }

// Size returns the export size in CSS pixels.
func (f *Figure) Size() (width, height int) { return f.width, f.height }

// Series returns the names of the figure's series, in order.
func (f *Figure) Series() []string { return append([]string(nil), f.series...) }

// OptionJSON returns the figure's ECharts option as JSON with sorted keys.
// JavaScript functions (formatters) appear as strings holding their source;
// OptionJS has them as code.
func (f *Figure) OptionJSON() []byte { return append([]byte(nil), f.optionJSON...) }

// OptionJS returns the option as a JavaScript expression that is safe to
// place inside a <script> element: functions are code, and no user string
// can close the element.
func (f *Figure) OptionJS() string { return f.optionJS }

// Light returns a copy of f whose HTML is the light fragment (no library
// inside), for pages or notebooks that already show a full figure.
func (f *Figure) Light() *Figure {
	c := *f
	c.light = true
	return &c
}

// Full returns a copy of f whose HTML is the full fragment, library inside.
func (f *Figure) Full() *Figure {
	c := *f
	c.light = false
	return &c
}

// String describes the figure for text/plain outputs.
func (f *Figure) String() string {
	if f == nil {
		return "nil figure"
	}
	title := f.title
	if title == "" {
		title = "untitled"
	}
	return fmt.Sprintf("Figure %s: %q (%s chart, %d series, %d×%d)", f.id, title, f.kind, len(f.series), f.width, f.height)
}

// label is the text used where a name is needed (aria labels, headings).
func (f *Figure) label() string {
	if f.title != "" {
		return f.title
	}
	return f.id
}

// Caption is the figure's title block as a paragraph: for a paper figure
// (WithPaper), which does not draw it, the caption to print under it. A
// figure made with New has its title, if any.
func (f *Figure) Caption() string {
	if f.caption == "" && f.title != "" {
		return captionOf(f.title, "")
	}
	return f.caption
}

// CaptionLaTeX is the Caption as a LaTeX \caption{} line, escaped as the
// tables are (ASCII only).
func (f *Figure) CaptionLaTeX() string {
	return "\\caption{" + latexEscape(f.Caption()) + "}\n"
}
