package plot

import (
	"bytes"
	"fmt"
	"html"
	"regexp"
	"sync"
)

// Page is a standalone HTML document holding many figures, with the ECharts
// library inlined once: it works offline, from a file:// URL, in any current
// browser.
type Page struct {
	title   string
	figures []*Figure
}

// NewPage starts a page with a title (shown as its heading) and figures.
func NewPage(title string, figures ...*Figure) *Page {
	return &Page{title: title, figures: append([]*Figure(nil), figures...)}
}

// Add appends figures to the page.
func (p *Page) Add(figures ...*Figure) { p.figures = append(p.figures, figures...) }

// String names the page and counts its figures.
func (p *Page) String() string {
	if p == nil {
		return "nil page"
	}
	return fmt.Sprintf("page %q with %d figures", p.title, len(p.figures))
}

// Render returns the page's HTML.
func (p *Page) Render() ([]byte, error) {
	for i, f := range p.figures {
		if f == nil {
			return nil, fmt.Errorf("plot: page %q: figure %d is nil", p.title, i)
		}
	}
	title := p.title
	if title == "" {
		title = "routelab figures"
	}
	var b bytes.Buffer
	if err := writePageHead(&b, title, pageStyle); err != nil {
		return nil, err
	}
	fmt.Fprintf(&b, "<h1>%s</h1>\n", html.EscapeString(title))
	for _, f := range p.figures {
		b.WriteString("<figure>\n")
		b.WriteString(f.fragment(fragmentConfig{width: "100%", theme: f.theme}))
		b.WriteString("\n</figure>\n")
	}
	b.WriteString("</body>\n</html>\n")
	return b.Bytes(), nil
}

// WriteFile writes the page to path.
func (p *Page) WriteFile(path string) error {
	page, err := p.Render()
	if err != nil {
		return err
	}
	return WriteFile(path, page)
}

const pageStyle = `:root { color-scheme: light dark; }
body { margin: 2rem auto; max-width: 1100px; padding: 0 1rem; font-family: system-ui, sans-serif; background: #ffffff; color: #1f2328; }
@media (prefers-color-scheme: dark) { body { background: #16161a; color: #e6e6e6; } }
figure { margin: 0 0 2.5rem; }`

var closingScript = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)</script`) })

// writePageHead writes the document head, the library and opens <body>.
func writePageHead(b *bytes.Buffer, title, style string) error {
	lib, err := LibraryJS()
	if err != nil {
		return err
	}
	fmt.Fprintf(b, `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="routelab (Apache ECharts %s embedded)">
<title>%s</title>
<link rel="icon" href="data:,">
<style>
%s
</style>
</head>
<body>
<script type="text/javascript">
(function (define, module, exports) {
`, EChartsVersion, html.EscapeString(title), style)
	b.Write(closingScript().ReplaceAll(lib, []byte(`<\/script`)))
	b.WriteString("\n}).call(window);\n</script>\n")
	return nil
}

// exportPage is a page holding only f at its export size, drawn without
// animation on an opaque background, for PNG export.
func exportPage(f *Figure) ([]byte, error) {
	theme, bg := exportTheme(f.theme)
	var b bytes.Buffer
	style := fmt.Sprintf("html, body { margin: 0; padding: 0; background: %s; }", bg)
	if err := writePageHead(&b, f.label(), style); err != nil {
		return nil, err
	}
	b.WriteString(f.fragment(fragmentConfig{width: fmt.Sprintf("%dpx", f.width), theme: theme, static: true}))
	b.WriteString("\n</body>\n</html>\n")
	return b.Bytes(), nil
}

// exportTheme is the theme and background exports use: auto becomes light.
func exportTheme(t Theme) (Theme, string) {
	if t == ThemeDark {
		return ThemeDark, darkBackground
	}
	return ThemeLight, "#ffffff"
}

// darkBackground is ECharts' dark theme background.
const darkBackground = "#100c2a"
