package plot

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// PDF implements a vector PDF export: PDFContext with a two-minute limit.
func (f *Figure) PDF() ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	return f.PDFContext(ctx)
}

// PDFContext returns the figure as a one-page vector PDF exactly its export
// size (96 CSS pixels to the inch, so a figure made WithPaper(OneColumn) is
// 3.3 in wide): its SVG export, printed by headless Chromium with every host
// name unresolvable. Text stays text (searchable, in the embedded font), and
// the same figure gives the same bytes: the dates and document id Chromium
// writes are replaced by fixed ones derived from the content.
func (f *Figure) PDFContext(ctx context.Context) ([]byte, error) {
	if f == nil {
		return nil, errNilFigure
	}
	exe, err := chromiumPath()
	if err != nil {
		return nil, err
	}
	svg, err := f.SVGContext(ctx)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "routelab-pdf-")
	if err != nil {
		return nil, fmt.Errorf("plot: PDF export of %q: %w", f.id, err)
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "figure.html")
	if err := os.WriteFile(file, printPage(f.label(), svg, f.width, f.height), 0o600); err != nil {
		return nil, fmt.Errorf("plot: PDF export of %q: %w", f.id, err)
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, browserOptions(exe, filepath.Join(dir, "profile"), "MAP * ~NOTFOUND")...)
	defer cancelAlloc()
	tab, cancelTab := chromedp.NewContext(alloc)
	defer cancelTab()
	var pdf []byte
	err = chromedp.Run(tab, chromedp.Navigate("file://"+file), chromedp.ActionFunc(func(ctx context.Context) error {
		var err error
		pdf, _, err = page.PrintToPDF().WithPrintBackground(true).WithPreferCSSPageSize(true).
			WithPaperWidth(float64(f.width) / 96).WithPaperHeight(float64(f.height) / 96).
			WithMarginTop(0).WithMarginBottom(0).WithMarginLeft(0).WithMarginRight(0).Do(ctx)
		return err
	}))
	if err != nil {
		return nil, fmt.Errorf("plot: PDF export of %q: printing in Chromium: %w", f.id, err)
	}
	return stablePDF(pdf), nil
}

// printPage is a page holding only the SVG, as large as the page it prints
// on (one CSS pixel a 96th of an inch); its title becomes the PDF's.
func printPage(title, svg string, width, height int) []byte {
	return fmt.Appendf(nil, `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>%s</title><link rel="icon" href="data:,"><style>
@page { size: %dpx %dpx; margin: 0; }
html, body { margin: 0; padding: 0; width: %dpx; height: %dpx; overflow: hidden; }
svg { display: block; }
</style></head><body>%s</body></html>
`, html.EscapeString(title), width, height, width, height, svg)
}

// Chromium's PDF writer (Skia) dates the document and gives it a random id.
var (
	pdfDate = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`/(CreationDate|ModDate) \(D:[^)]*\)`) })
	pdfID   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`/ID \[<([0-9A-Fa-f]+)> <([0-9A-Fa-f]+)>\]`) })
)

// stablePDF replaces the dates with the start of 2000 and the id with a hash
// of the rest, each with text of the same length, so the cross-reference
// table's byte offsets stay right.
func stablePDF(pdf []byte) []byte {
	out := pdfDate().ReplaceAllFunc(pdf, func(m []byte) []byte {
		m = bytes.Clone(m)
		open := bytes.IndexByte(m, '(')
		fixed := []byte("D:20000101000000")
		body := m[open+1 : len(m)-1]
		for i := range body {
			if i < len(fixed) {
				body[i] = fixed[i]
			} else if body[i] >= '0' && body[i] <= '9' {
				body[i] = '0'
			}
		}
		return m
	})
	sum := sha256.Sum256(pdfID().ReplaceAll(out, nil))
	id := bytes.ToUpper([]byte(hex.EncodeToString(sum[:])))
	return pdfID().ReplaceAllFunc(out, func(m []byte) []byte {
		m = bytes.Clone(m)
		sub := pdfID().FindSubmatchIndex(m)
		for _, g := range [][2]int{{sub[2], sub[3]}, {sub[4], sub[5]}} {
			for i := g[0]; i < g[1]; i++ {
				m[i] = id[(i-g[0])%len(id)]
			}
		}
		return m
	})
}
