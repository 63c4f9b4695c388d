package kernel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/routelab/routelab/display"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	gmhtml "github.com/yuin/goldmark/renderer/html"
)

// ansiEscape matches terminal colour and cursor sequences in tracebacks.
// Compiled on first use, like kernelNamePattern: package initialisation is
// paid by every routelab process.
var ansiEscape = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("\x1b\\[[0-9;?]*[ -/]*[@-~]") })

// RenderHTML renders an executed notebook as one standalone HTML page with
// no network references of its own: markdown through goldmark, code
// escaped, text/html outputs inserted as they are (routelab's chart
// fragments carry their own script), SVG inline, PNG and JPEG as data URIs,
// everything else as escaped text. The same notebook gives the same bytes.
func RenderHTML(nb *Notebook, title string) ([]byte, error) {
	md := goldmark.New(
		goldmark.WithExtensions(extension.GFM),
		goldmark.WithRendererOptions(gmhtml.WithUnsafe()),
	)
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	b.WriteString("<meta name=\"generator\" content=\"routelab\">\n")
	fmt.Fprintf(&b, "<title>%s</title>\n<style>\n%s</style>\n</head>\n<body>\n<main class=\"notebook\">\n", html.EscapeString(title), pageCSS)
	for i, c := range nb.Cells {
		switch c.Type {
		case "markdown":
			var buf bytes.Buffer
			if err := md.Convert([]byte(c.Source), &buf); err != nil {
				return nil, fmt.Errorf("cells[%d]: markdown: %w", i, err)
			}
			fmt.Fprintf(&b, "<div class=\"cell markdown\">\n%s</div>\n", inlineAttachments(buf.String(), c.Attachments))
		case "raw":
			var format string
			_ = json.Unmarshal(c.Metadata["format"], &format)
			if format == display.TextHTML {
				fmt.Fprintf(&b, "<div class=\"cell raw\">\n%s\n</div>\n", c.Source)
			}
		case "code":
			writeCodeCell(&b, c, md)
		}
	}
	b.WriteString("</main>\n</body>\n</html>\n")
	return []byte(b.String()), nil
}

func writeCodeCell(b *strings.Builder, c *Cell, md goldmark.Markdown) {
	count := " "
	if c.ExecutionCount != nil {
		count = fmt.Sprint(*c.ExecutionCount)
	}
	fmt.Fprintf(b, "<div class=\"cell code\">\n<div class=\"input\"><div class=\"prompt\">In&nbsp;[%s]:</div>", count)
	fmt.Fprintf(b, "<pre class=\"source\"><code>%s</code></pre></div>\n", html.EscapeString(c.Source))
	for _, o := range c.Outputs {
		prompt := ""
		if o.Type == "execute_result" && o.ExecutionCount != nil {
			prompt = fmt.Sprintf("Out[%d]:", *o.ExecutionCount)
		}
		fmt.Fprintf(b, "<div class=\"output\"><div class=\"prompt\">%s</div><div class=\"output-body\">", prompt)
		writeOutput(b, o, md)
		b.WriteString("</div></div>\n")
	}
	b.WriteString("</div>\n")
}

func writeOutput(b *strings.Builder, o *Output, md goldmark.Markdown) {
	switch o.Type {
	case "stream":
		fmt.Fprintf(b, "<pre class=\"stream %s\">%s</pre>", html.EscapeString(o.Name), html.EscapeString(o.Text))
	case "error":
		tb := o.Traceback
		if len(tb) == 0 {
			tb = []string{o.EName + ": " + o.EValue}
		}
		text := ansiEscape().ReplaceAllString(strings.Join(tb, "\n"), "")
		fmt.Fprintf(b, "<pre class=\"error\">%s</pre>", html.EscapeString(text))
	default:
		writeBundle(b, o.Data, md)
	}
}

// writeBundle shows the richest entry of a MIME bundle.
func writeBundle(b *strings.Builder, data display.Bundle, md goldmark.Markdown) {
	text := func(mime string) (string, bool) {
		s, ok := data[mime].(string)
		return s, ok
	}
	if s, ok := text(display.TextHTML); ok {
		b.WriteString(s)
		return
	}
	if s, ok := text(display.SVG); ok {
		fmt.Fprintf(b, "<div class=\"svg\">%s</div>", s)
		return
	}
	for _, mime := range []string{display.PNG, "image/jpeg", "image/gif"} {
		if s, ok := text(mime); ok {
			fmt.Fprintf(b, "<img alt=\"\" src=\"data:%s;base64,%s\">", mime, stripSpace(s))
			return
		}
	}
	if s, ok := text(display.Markdown); ok {
		var buf bytes.Buffer
		if md.Convert([]byte(s), &buf) == nil {
			fmt.Fprintf(b, "<div class=\"markdown\">%s</div>", buf.String())
			return
		}
	}
	if v, ok := data[display.JSON]; ok {
		if raw, err := json.MarshalIndent(v, "", "  "); err == nil {
			fmt.Fprintf(b, "<pre class=\"json\">%s</pre>", html.EscapeString(string(raw)))
			return
		}
	}
	s, _ := text(display.TextPlain)
	fmt.Fprintf(b, "<pre class=\"text\">%s</pre>", html.EscapeString(ansiEscape().ReplaceAllString(s, "")))
}

func stripSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '\n' || r == '\r' || r == '\t' {
			return -1
		}
		return r
	}, s)
}

// inlineAttachments replaces markdown references to cell attachments
// (src="attachment:NAME") with data URIs.
func inlineAttachments(page string, raw json.RawMessage) string {
	if len(raw) == 0 || !strings.Contains(page, "attachment:") {
		return page
	}
	var atts map[string]map[string]json.RawMessage
	if json.Unmarshal(raw, &atts) != nil {
		return page
	}
	for name, bundle := range atts {
		for mime, v := range bundle {
			data, err := multiline(v)
			if err != nil || !strings.HasPrefix(mime, "image/") {
				continue
			}
			uri := fmt.Sprintf("data:%s;base64,%s", html.EscapeString(mime), stripSpace(data))
			for _, ref := range []string{name, url.PathEscape(name)} {
				page = strings.ReplaceAll(page, `src="attachment:`+ref+`"`, `src="`+uri+`"`)
			}
			break
		}
	}
	return page
}

// pageCSS is the page's only style; it references nothing outside the page.
const pageCSS = `:root { --fg: #1d1f21; --muted: #6a737d; --code-bg: #f6f8fa; --border: #e1e4e8; --err-bg: #fdecea; }
body { margin: 0; color: var(--fg); background: #fff; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main.notebook { max-width: 1100px; margin: 0 auto; padding: 24px 32px 64px; }
.cell { margin: 12px 0; }
.input, .output { display: flex; align-items: flex-start; }
.prompt { flex: 0 0 72px; padding: 6px 8px 0 0; text-align: right; color: var(--muted); font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.cell.markdown { padding-left: 80px; }
pre { margin: 0; white-space: pre-wrap; word-break: break-word; font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre.source { flex: 1; min-width: 0; background: var(--code-bg); border: 1px solid var(--border); border-radius: 4px; padding: 8px 10px; }
.output-body { flex: 1; min-width: 0; overflow-x: auto; padding: 4px 0; }
pre.stderr { background: var(--err-bg); padding: 4px 6px; }
pre.error { background: var(--err-bg); border-left: 3px solid #d73a49; padding: 6px 8px; }
.output-body img, .output-body svg { max-width: 100%; height: auto; }
table { border-collapse: collapse; }
th, td { border: 1px solid var(--border); padding: 4px 8px; }
.markdown code { background: var(--code-bg); padding: 1px 4px; border-radius: 3px; }
.markdown pre { background: var(--code-bg); padding: 8px 10px; border-radius: 4px; }
`
