package plot

import (
	"errors"
	"fmt"
	"math"

	"github.com/routelab/routelab/engine"
)

// The options of the figure builders (Comparison, LatencyCDF, Timeline,
// RateSweep, StudyHeatmap, Paired).

// Option adjusts a figure builder. It shows as the call that made it.
type Option struct {
	call  string
	apply func(*settings) error
}

// String is the call that made the option: plot.WithTitle("p99").
func (o Option) String() string {
	if o.apply == nil {
		return "plot.Option{} (no effect)"
	}
	return o.call
}

// Scale is how a latency axis is drawn.
type Scale string

const (
	// ScaleAuto draws a latency axis logarithmic when its values span a
	// factor of ten or more, linear otherwise.
	ScaleAuto Scale = "auto"
	// ScaleLinear draws it linear from zero.
	ScaleLinear Scale = "linear"
	// ScaleLog draws it logarithmic.
	ScaleLog Scale = "log"
)

type settings struct {
	id, title     string
	theme         Theme
	width, height int // height 0: the figure's own
	palette       *Palette
	svg           *SVGRenderer
	latency       Scale
	protocol      engine.Protocol
	paper         bool // laid out for a page: no title block (it is the caption)
}

// WithID names the figure (see Spec.ID); by default a figure's id is its
// kind and a hash of its content, so the same data give the same id.
func WithID(id string) Option {
	return Option{fmt.Sprintf("plot.WithID(%q)", id), func(s *settings) error { s.id = id; return nil }}
}

// WithTitle replaces the figure's title.
func WithTitle(title string) Option {
	return Option{fmt.Sprintf("plot.WithTitle(%q)", title), func(s *settings) error { s.title = title; return nil }}
}

// WithTheme sets the figure's theme (default ThemeAuto).
func WithTheme(t Theme) Option {
	return Option{fmt.Sprintf("plot.WithTheme(%q)", string(t)), func(s *settings) error {
		if _, err := resolveTheme(t, ""); err != nil || t == "" {
			return fmt.Errorf("plot: theme %q is not one of auto, light, dark", t)
		}
		s.theme = t
		return nil
	}}
}

// WithSize sets the export size in CSS pixels (HTML output keeps the full
// width available and takes this height). A height too small for the
// figure's text and panels is an error naming the least that works.
func WithSize(width, height int) Option {
	return Option{fmt.Sprintf("plot.WithSize(%d, %d)", width, height), func(s *settings) error {
		if width < minSide || width > maxSide || height < minSide || height > maxSide {
			return fmt.Errorf("plot: size %d×%d is outside %d–%d pixels per side", width, height, minSide, maxSide)
		}
		s.width, s.height = width, height
		return nil
	}}
}

// WithWidth sets the export width in CSS pixels and lets the figure take
// the height its content needs at that width.
func WithWidth(width int) Option {
	return Option{fmt.Sprintf("plot.WithWidth(%d)", width), func(s *settings) error {
		if width < minWidth || width > maxSide {
			return fmt.Errorf("plot: width %d is outside %d–%d pixels", width, minWidth, maxSide)
		}
		s.width, s.height = width, 0
		return nil
	}}
}

// minWidth is the narrowest figure the builders lay out: a one-column
// figure, 3.3 in at 96 px to the inch, is 317 px.
const minWidth = 300

// Widths of paper figures, in inches (for WithPaper).
const (
	// OneColumn is a figure one column of a two-column paper wide.
	OneColumn = 3.3
	// TwoColumn is a figure spanning both columns.
	TwoColumn = 7.0
)

// WithPaper lays the figure out for a page: inches wide at 96 CSS pixels
// to the inch (OneColumn, TwoColumn or any width), so it prints at its CSS
// size and its smallest text (10 px) prints at 7.5 pt. Up to 3.5 in wide
// (a column) it is 2.6 in tall and a comparison shows two panels; wider,
// 3 in. The title block is not drawn: it is the figure's Caption. Its PDF
// export is a page of exactly that size.
func WithPaper(inches float64) Option {
	return Option{fmt.Sprintf("plot.WithPaper(%g)", inches), func(s *settings) error {
		w := paperWidth(inches)
		if !defined(inches) || w < minWidth || w > maxSide {
			return fmt.Errorf("plot: paper width %g in is outside %.2f–%.0f in", inches, float64(minWidth)/96, float64(maxSide)/96)
		}
		s.width, s.height, s.paper = w, paperWidth(paperTwoColumnHeight), true
		if inches <= paperColumnWidth {
			s.height = paperWidth(paperColumnHeight)
		}
		return nil
	}}
}

// Paper figure sizes, in inches: up to paperColumnWidth wide a figure fits
// a column and is paperColumnHeight tall, wider ones paperTwoColumnHeight.
const (
	paperColumnWidth     = 3.5
	paperColumnHeight    = 2.6
	paperTwoColumnHeight = 3.0
)

// paperColumn tells whether s lays a figure out for one column of a page.
func (s settings) paperColumn() bool {
	return s.paper && float64(s.width) <= paperColumnWidth*96+0.5
}

// paperWidth is a width in inches in CSS pixels.
func paperWidth(inches float64) int { return int(math.Round(inches * 96)) }

// WithPalette colours the figure's series from p instead of DefaultPalette.
func WithPalette(p *Palette) Option {
	return Option{"plot.WithPalette(" + p.String() + ")", func(s *settings) error {
		if p == nil {
			return errors.New("plot: WithPalette needs a palette (DefaultPalette() or one made from it)")
		}
		s.palette = p
		return nil
	}}
}

// WithRenderer makes the figure's SVG method use r (see Spec.SVG).
func WithRenderer(r *SVGRenderer) Option {
	return Option{"plot.WithRenderer(" + r.String() + ")", func(s *settings) error { s.svg = r; return nil }}
}

// WithLatencyScale sets how Comparison draws its p99 axis (default
// ScaleAuto).
func WithLatencyScale(sc Scale) Option {
	return Option{fmt.Sprintf("plot.WithLatencyScale(%q)", string(sc)), func(s *settings) error {
		switch sc {
		case ScaleAuto, ScaleLinear, ScaleLog:
			s.latency = sc
			return nil
		}
		return fmt.Errorf("plot: latency scale %q is not one of auto, linear, log", sc)
	}}
}

// WithSLO sets the SLO (ms) marked on a Timeline (default engine.DefaultSLO);
// figures of comparisons take it from the comparison's protocol.
func WithSLO(ms float64) Option {
	return Option{fmt.Sprintf("plot.WithSLO(%g)", ms), func(s *settings) error {
		if !defined(ms) || ms <= 0 {
			return fmt.Errorf("plot: SLO %g ms is not a positive number of milliseconds", ms)
		}
		s.protocol.SLO = ms
		return nil
	}}
}

// WithProtocol gives a Timeline the protocol its run was made with: the
// warm-up and measurement window it marks and the SLO (default
// engine.DefaultProtocol(); a run does not record its protocol).
func WithProtocol(p engine.Protocol) Option {
	return Option{fmt.Sprintf("plot.WithProtocol(engine.Protocol{Warmup: %g, Measure: %g, SLO: %g})", p.Warmup, p.Measure, p.SLO), func(s *settings) error {
		if !defined(p.Warmup) || !defined(p.Measure) || !defined(p.SLO) || p.Warmup < 0 || p.Measure <= 0 || p.SLO <= 0 {
			return fmt.Errorf("plot: protocol warm-up %g ms, measurement %g ms, SLO %g ms: want a warm-up >= 0 and a measurement and SLO > 0", p.Warmup, p.Measure, p.SLO)
		}
		s.protocol = p
		return nil
	}}
}

func applyOptions(options []Option, width int) (settings, error) {
	s := settings{theme: ThemeAuto, width: width, palette: DefaultPalette(), latency: ScaleAuto, protocol: engine.DefaultProtocol()}
	for _, o := range options {
		if o.apply == nil {
			continue
		}
		if err := o.apply(&s); err != nil {
			return settings{}, err
		}
	}
	return s, nil
}
