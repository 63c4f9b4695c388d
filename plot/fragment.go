package plot

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html"
	"strings"
	"sync"
)

// runtimeJS draws one figure; every fragment and page calls it with the
// figure's spec. See the comments inside.
//
//go:embed runtime.js
var runtimeJS string

// fragmentRuntime is runtimeJS as every fragment carries it: without its comment
// lines and indentation, which each output would otherwise repeat.
var fragmentRuntime = sync.OnceValue(func() string {
	var lines []string
	for _, l := range strings.Split(runtimeJS, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "//") {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
})

// lightWaitMillis is how long a light fragment waits for the library before
// it shows its message: long enough for a full fragment earlier in the
// notebook to unpack the library, short enough not to leave a blank box.
const lightWaitMillis = 5000

// fragmentConfig varies the one fragment template between uses.
type fragmentConfig struct {
	lib      string // gzip+base64 library, "" when the page provides it
	static   bool   // draw the static option at the export size (exports)
	fallback string // SVG shown until the script draws, "" for the placeholder
	width    string // CSS width of the container
	theme    Theme
	wait     int // milliseconds to wait for a library this fragment lacks
	// packed carries the option gzip+base64 (a fifth of its size or less),
	// for light fragments, which must stay small.
	packed bool
}

// Fragment returns the figure as one self-contained text/html snippet for a
// notebook output: a container div and a script that installs the embedded
// ECharts library when window.echarts is missing (about 450 KB, gzip+base64,
// unpacked once per page), then draws the figure and keeps it sized to its
// container. It loads nothing from the network, works with require.js
// present (classic Notebook, nbconvert) and where the front end re-creates
// scripts (JupyterLab), and the same fragment may appear any number of
// times on one page.
func (f *Figure) Fragment() string {
	return f.fragment(fragmentConfig{lib: libraryGzipBase64(), width: "100%", theme: f.theme})
}

// LightFragment returns the figure without the library (a few KB plus the
// option): for later figures on a page or notebook that already shows a
// full fragment. Alone, it waits briefly for the library and then shows a
// message saying how to get the full output, never an empty box.
func (f *Figure) LightFragment() string {
	return f.fragment(fragmentConfig{width: "100%", theme: f.theme, wait: lightWaitMillis, packed: true})
}

// WithStatic returns f's HTML output (the full fragment, or the light one
// for a figure returned by Light) with svg, the figure's SVG export, as an
// image inside its container until the script draws the interactive
// figure: front ends that run no script (an untrusted notebook, a viewer
// or mail client showing HTML without JavaScript) show the static figure
// instead.
func (f *Figure) WithStatic(svg string) string {
	c := fragmentConfig{width: "100%", theme: f.theme, fallback: svg}
	if f.light {
		c.wait, c.packed = lightWaitMillis, true
	} else {
		c.lib = libraryGzipBase64()
	}
	return f.fragment(c)
}

// HTML implements display.HTMLer: the full fragment, or the light one for a
// figure returned by Light.
func (f *Figure) HTML() string {
	if f == nil {
		return "<p>nil figure</p>"
	}
	if f.light {
		return f.LightFragment()
	}
	return f.Fragment()
}

// placeholder stays visible where scripts do not run (an untrusted
// notebook, a viewer without JavaScript) instead of an empty box.
const placeholder = `<p style="margin:0;padding:0.6em 0;font:13px/1.4 sans-serif;color:#868e96;">Figure “%s” is drawn by JavaScript. ` +
	`If this text stays, trust the notebook (or allow scripts) to see it.</p>`

// staticImage shows an SVG export as an image scaled to its container,
// until the script replaces it. An image from a data: URL rather than an
// inline <svg>: sanitizers that strip SVG's elements keep their text and
// leave a heap of words (nbconvert --sanitize-html does), while one that
// refuses data: URLs leaves an image that shows its alternative text.
const staticImage = `<img alt="Figure “%s” (static image; its interactive form needs scripts: trust the notebook or allow them)" ` +
	`style="display:block;width:100%%;height:auto;" src="data:image/svg+xml;charset=utf-8,%s">`

// gzipBase64 packs text as the runtime's unpack reads it. The gzip header
// holds no time or name, so the same option packs to the same bytes.
func gzipBase64(text string) string {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression) // a valid level: no error
	zw.Write([]byte(text))                                   // a bytes.Buffer does not fail
	zw.Close()
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

// svgDataURL returns svg as the data of a data: URL inside a double-quoted
// HTML attribute, a quarter smaller than base64. Its attributes are
// delimited by single quotes instead (quotes in text and values become
// character references), and what the URL or the HTML parser would take
// for its own is percent-encoded: the escape character, the fragment mark,
// the ampersand (the HTML parser would decode references, leaving bare &
// in the XML) and line breaks, which URL parsing drops.
func svgDataURL(svg string) string {
	var b strings.Builder
	b.Grow(len(svg) + len(svg)/16)
	inTag, inValue := false, false
	for _, r := range svg {
		switch {
		case r == '"' && inTag:
			inValue = !inValue
			b.WriteByte('\'')
		case r == '"':
			b.WriteString("%26%2334;")
		case r == '\'' && (inValue || !inTag):
			b.WriteString("%26%2339;")
		case r == '<' && !inValue:
			inTag = true
			b.WriteRune(r)
		case r == '>' && !inValue:
			inTag = false
			b.WriteRune(r)
		case r == '%':
			b.WriteString("%25")
		case r == '#':
			b.WriteString("%23")
		case r == '&':
			b.WriteString("%26")
		case r == '\n':
			b.WriteString("%0A")
		case r == '\r':
			b.WriteString("%0D")
		case r == '\t':
			b.WriteString("%09")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func (f *Figure) fragment(c fragmentConfig) string {
	lib := "null"
	if c.lib != "" {
		lib = `"` + c.lib + `"` // base64 needs no escaping
	}
	var b strings.Builder
	b.Grow(len(c.lib) + len(f.optionJS) + len(fragmentRuntime()) + 512)
	label := html.EscapeString(f.label())
	option, height := f.optionJS, f.htmlHeight
	if c.static {
		option, height = f.staticJS, f.height
	}
	// The container takes the figure's height when the script draws; until
	// then a static SVG takes its own, scaled to the container's width.
	style, content := fmt.Sprintf("width:%s;height:%dpx;", c.width, height), fmt.Sprintf(placeholder, label)
	if c.fallback != "" {
		style = fmt.Sprintf("width:%s;max-width:%dpx;", c.width, f.width)
		content = fmt.Sprintf(staticImage, label, svgDataURL(c.fallback))
	}
	fmt.Fprintf(&b, `<div class="routelab-figure" data-routelab-figure="%s" data-routelab-key="%s" role="img" aria-label="%s" style="%s">%s</div>`,
		f.id, f.key, label, style, content)
	b.WriteString("\n<script type=\"text/javascript\">\n(")
	b.WriteString(fragmentRuntime())
	fmt.Fprintf(&b, ")({id: %s, key: %s, theme: %s, wait: %d, height: %d,\nlib: %s,\n", jsString(f.id), jsString(f.key), jsString(string(c.theme)), c.wait, height, lib)
	if c.packed {
		fmt.Fprintf(&b, "packed: %q});\n</script>", gzipBase64(option))
	} else {
		fmt.Fprintf(&b, "option: function () { return %s; }});\n</script>", option)
	}
	return b.String()
}
