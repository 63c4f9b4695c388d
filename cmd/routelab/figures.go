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

// export builds the figure, only when a figure file was asked for, and
// writes it (page renders the HTML document) to the requested files.
func (f *figureFiles) export(ctx context.Context, build func() (*plot.Figure, error), page func(*plot.Figure) ([]byte, error)) error {
	if !f.any() {
		return nil
	}
	fig, err := build()
	if err != nil {
		return err
	}
	if f.html != "" {
		data, err := page(fig)
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
func singlePage(fig *plot.Figure) ([]byte, error) { return plot.NewPage(fig.Title(), fig).Render() }
