package plot

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sync"

	"github.com/dop251/goja"
)

// SVGRenderer exports figures to SVG with ECharts' own server-side renderer
// (renderer "svg", ssr true, renderToSVGString) run inside the Go process by
// goja. Loading the library into a JavaScript runtime takes a few hundred
// milliseconds, so the renderer keeps up to a fixed number of loaded
// runtimes and reuses them; a render then takes tens of milliseconds. It is
// safe for concurrent use: each runtime serves one export at a time.
type SVGRenderer struct {
	once       sync.Once
	program    *goja.Program
	programErr error
	// slots holds one entry per runtime allowed: nil until that runtime is
	// first needed, and again after a runtime had to be thrown away.
	slots chan *svgRuntime
}

// NewSVGRenderer returns a renderer keeping at most runtimes JavaScript
// runtimes (at least one; each holds the library, some tens of MB).
func NewSVGRenderer(runtimes int) *SVGRenderer {
	runtimes = max(runtimes, 1)
	r := &SVGRenderer{slots: make(chan *svgRuntime, runtimes)}
	for range runtimes {
		r.slots <- nil
	}
	return r
}

// String says how many runtimes the renderer may keep.
func (r *SVGRenderer) String() string {
	if r == nil {
		return "no SVG renderer (one-off runtimes)"
	}
	return fmt.Sprintf("SVG renderer keeping up to %d JavaScript runtimes", cap(r.slots))
}

// Render returns f as an SVG document of f's size. An auto theme renders as
// light, on an opaque background (white, or the dark theme's own).
func (r *SVGRenderer) Render(ctx context.Context, f *Figure) (string, error) {
	svg, err := r.raw(ctx, f)
	if err != nil {
		return "", err
	}
	return compactSVG(svg, svgIDPrefix(f)), nil
}

// svgIDPrefix starts the ids of f's SVG, which must not meet another
// figure's where a front end inlines several SVG documents in one page.
func svgIDPrefix(f *Figure) string { return f.id + "-" + f.key + "-" }

// raw is Render without compactSVG: the SVG as ECharts writes it.
func (r *SVGRenderer) raw(ctx context.Context, f *Figure) (svg string, err error) {
	var rt *svgRuntime
	select {
	case rt = <-r.slots:
	case <-ctx.Done():
		return "", fmt.Errorf("plot: SVG export of %q: %w", f.id, ctx.Err())
	}
	defer func() { r.slots <- rt }()
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("plot: SVG export of %q: %w", f.id, err)
	}
	if rt == nil {
		if rt, err = r.newRuntime(); err != nil {
			return "", fmt.Errorf("plot: SVG export of %q: %w", f.id, err)
		}
	}
	svg, healthy, err := rt.render(ctx, f)
	if !healthy {
		rt = nil // interrupted or panicked: its state is unknown
	}
	if err != nil {
		return "", fmt.Errorf("plot: SVG export of %q: %w", f.id, err)
	}
	return svg, nil
}

type svgRuntime struct {
	vm   *goja.Runtime
	draw goja.Callable
}

// drawJS renders one (static) option; the chart is disposed whatever
// happens.
const drawJS = `(function (option, width, height, theme, background) {
  var chart = echarts.init(null, theme === "dark" ? "dark" : null,
    { renderer: "svg", ssr: true, width: width, height: height });
  try {
    option.backgroundColor = background;
    chart.setOption(option);
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
})`

func (r *SVGRenderer) newRuntime() (*svgRuntime, error) {
	r.once.Do(func() {
		lib, err := LibraryJS()
		if err != nil {
			r.programErr = err
			return
		}
		r.program, r.programErr = goja.Compile("echarts.min.js", string(lib), false)
	})
	if r.programErr != nil {
		return nil, r.programErr
	}
	vm := goja.New()
	if err := installShims(vm); err != nil {
		return nil, err
	}
	if _, err := vm.RunProgram(r.program); err != nil {
		return nil, fmt.Errorf("loading ECharts: %w", err)
	}
	if err := measureWithMetrics(vm); err != nil {
		return nil, err
	}
	fn, err := vm.RunString(drawJS)
	if err != nil {
		return nil, err
	}
	draw, ok := goja.AssertFunction(fn)
	if !ok {
		return nil, errors.New("draw function did not compile to a function")
	}
	return &svgRuntime{vm: vm, draw: draw}, nil
}

// measureWithMetrics makes ECharts measure text with the metric table the
// figures are laid out with (textmetrics.go), as a browser drawing the SVG
// with DejaVu Sans would; without it zrender falls back to a Helvetica-like
// estimate, and legends and labels laid out with it overlap when the SVG is
// shown in DejaVu Sans.
func measureWithMetrics(vm *goja.Runtime) error {
	if err := vm.Set("__routelabMeasure", textWidthCSS); err != nil {
		return err
	}
	_, err := vm.RunString(`echarts.setPlatformAPI({measureText: function (text, font) {
  return {width: __routelabMeasure(String(text == null ? "" : text), String(font || "12px sans-serif"))};
}})`)
	return err
}

// installShims gives the library the browser globals it touches: timers
// (never needed to fire: server-side rendering is synchronous) and console.
func installShims(vm *goja.Runtime) error {
	noop := func(goja.FunctionCall) goja.Value { return vm.ToValue(0) }
	console := vm.NewObject()
	for _, name := range []string{"log", "info", "warn", "error", "debug"} {
		if err := console.Set(name, noop); err != nil {
			return err
		}
	}
	for name, v := range map[string]any{
		"setTimeout": noop, "clearTimeout": noop, "setInterval": noop, "clearInterval": noop,
		"console": console,
	} {
		if err := vm.Set(name, v); err != nil {
			return err
		}
	}
	return nil
}

// zrenderIDs are the ids zrender gives clip paths and gradients; they count
// up across renders in one runtime and repeat across documents, so each SVG
// gets ids of its own figure instead.
var zrenderIDs = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(id="|url\(#|href="#)zr\d+-`) })

func (rt *svgRuntime) render(ctx context.Context, f *Figure) (svg string, healthy bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			svg, healthy, err = "", false, fmt.Errorf("renderer panicked: %v", p)
		}
	}()
	stop := context.AfterFunc(ctx, func() { rt.vm.Interrupt(ctx.Err()) })
	defer func() {
		if !stop() {
			rt.vm.ClearInterrupt()
			healthy = false
		}
	}()
	option, err := rt.vm.RunString("(" + f.staticJS + ")")
	if err != nil {
		return "", true, fmt.Errorf("option: %w", err)
	}
	theme, bg := exportTheme(f.theme)
	out, err := rt.draw(goja.Undefined(), option, rt.vm.ToValue(f.width), rt.vm.ToValue(f.height),
		rt.vm.ToValue(string(theme)), rt.vm.ToValue(bg))
	if err != nil {
		return "", true, err
	}
	return zrenderIDs().ReplaceAllString(out.String(), "${1}"+svgIDPrefix(f)), true, nil
}

// SVG implements display.SVGer, using the renderer from the figure's Spec
// (or a one-off renderer when it has none).
func (f *Figure) SVG() (string, error) { return f.SVGContext(context.Background()) }

// SVGContext is SVG with a context that can cancel the export.
func (f *Figure) SVGContext(ctx context.Context) (string, error) {
	if f == nil {
		return "", errNilFigure
	}
	r := f.svg
	if r == nil {
		r = NewSVGRenderer(1)
	}
	return r.Render(ctx, f)
}

// WithSVGRenderer returns a copy of f whose SVG method uses r, for example a
// renderer shared by a whole notebook session.
func (f *Figure) WithSVGRenderer(r *SVGRenderer) *Figure {
	c := *f
	c.svg = r
	return &c
}
