package main

import (
	"context"
	"os"

	"github.com/routelab/routelab/plot"
	"github.com/spf13/cobra"
)

// figureFiles are the optional figure outputs of a command.
type figureFiles struct {
	html, svg, png string
}

func (f *figureFiles) bind(cmd *cobra.Command, what string) {
	fl := cmd.Flags()
	fl.StringVar(&f.html, "html", "", "also write a standalone HTML report (works offline) to this file")
	fl.StringVar(&f.svg, "svg", "", "also write the "+what+" figure as SVG to this file")
	fl.StringVar(&f.png, "png", "", "also write the "+what+" figure as PNG to this file (needs Chromium)")
}

func (f *figureFiles) any() bool { return f.html != "" || f.svg != "" || f.png != "" }

// write exports fig (and page, the HTML document) to the requested files.
func (f *figureFiles) write(ctx context.Context, fig *plot.Figure, page func() ([]byte, error)) error {
	if f.html != "" {
		data, err := page()
		if err != nil {
			return err
		}
		if err := os.WriteFile(f.html, data, 0o644); err != nil {
			return err
		}
	}
	if f.svg != "" {
		svg, err := fig.SVGContext(ctx)
		if err != nil {
			return err
		}
		if err := os.WriteFile(f.svg, []byte(svg), 0o644); err != nil {
			return err
		}
	}
	if f.png != "" {
		data, err := fig.PNGContext(ctx)
		if err != nil {
			return err
		}
		return os.WriteFile(f.png, data, 0o644)
	}
	return nil
}

// singlePage renders one figure as a standalone page.
func singlePage(fig *plot.Figure) func() ([]byte, error) {
	return func() ([]byte, error) { return plot.NewPage(fig.Title(), fig).Render() }
}
