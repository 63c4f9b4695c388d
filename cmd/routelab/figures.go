package main

import (
	"context"
	"fmt"
	"io"

	"github.com/routelab/routelab/plot"
	"github.com/spf13/cobra"
)

// figureFiles are the optional figure outputs of a command.
type figureFiles struct {
	html, svg, png, pdf string
}

func (f *figureFiles) bind(cmd *cobra.Command, what string) {
	fl := cmd.Flags()
	fl.StringVar(&f.html, "html", "", "also write a standalone HTML report (works offline) to this file")
	fl.StringVar(&f.svg, "svg", "", "also write the "+what+" figure as SVG to this file")
	fl.StringVar(&f.png, "png", "", "also write the "+what+" figure as PNG to this file (needs Chromium)")
	fl.StringVar(&f.pdf, "pdf", "", "also write the "+what+" figure as vector PDF to this file (needs Chromium)")
}

func (f *figureFiles) any() bool { return f.html != "" || f.svg != "" || f.png != "" || f.pdf != "" }

// export builds the figure, only when a figure file was asked for, writes
// it (page renders the HTML document) to the requested files, and says on
// report which files it wrote.
func (f *figureFiles) export(ctx context.Context, report io.Writer, build func() (*plot.Figure, error), page func(*plot.Figure) ([]byte, error)) error {
	if !f.any() {
		return nil
	}
	fig, err := build()
	if err != nil {
		return err
	}
	outputs := []struct {
		path   string
		render func() ([]byte, error)
	}{
		{f.html, func() ([]byte, error) { return page(fig) }},
		{f.svg, func() ([]byte, error) { s, err := fig.SVGContext(ctx); return []byte(s), err }},
		{f.png, func() ([]byte, error) { return fig.PNGContext(ctx) }},
		{f.pdf, func() ([]byte, error) { return fig.PDFContext(ctx) }},
	}
	for _, o := range outputs {
		if o.path == "" {
			continue
		}
		data, err := o.render()
		if err != nil {
			return err
		}
		if err := writeFile(report, o.path, data); err != nil {
			return err
		}
	}
	return nil
}

// writeFile writes data to path and reports it on report: "wrote PATH (SIZE)".
func writeFile(report io.Writer, path string, data []byte) error {
	if err := plot.WriteFile(path, data); err != nil {
		return err
	}
	_, err := fmt.Fprintf(report, "wrote %s (%s)\n", path, byteSize(len(data)))
	return err
}

// byteSize says how big n bytes are, in B, KB or MB (powers of 1000).
func byteSize(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 999_500: // not "1000 KB"
		return fmt.Sprintf("%.0f KB", float64(n)/1e3)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}

// singlePage renders one figure as a standalone page.
func singlePage(fig *plot.Figure) ([]byte, error) { return plot.NewPage(fig.Title(), fig).Render() }
