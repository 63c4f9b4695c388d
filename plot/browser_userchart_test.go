package plot

import (
	"fmt"
	"testing"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// userCharts are charts as a cell builds them, with go-echarts' defaults
// for everything routelab lays out: docs/lab.md's example, every sample,
// and charts whose title, subtitle, legend and axis names all compete for
// the top of the figure.
func userCharts() []sample {
	out := []sample{
		{"docs-lab-squares", func() Chart {
			line := charts.NewLine()
			line.SetXAxis([]int{1, 2, 3})
			line.AddSeries("x²", []opts.LineData{{Value: 1}, {Value: 4}, {Value: 9}})
			return line
		}},
		{"busy-bar", func() Chart {
			bar := charts.NewBar()
			bar.SetGlobalOptions(
				charts.WithTitleOpts(opts.Title{Title: "Tail latency of every router we tried on the chat workload, by percentile",
					Subtitle: "3 replicas, 10 seeds, common random numbers; bars are medians across seeds, and the subtitle is long enough to wrap at a notebook's width"}),
				charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true)}),
				charts.WithToolboxOpts(Toolbox()),
				charts.WithYAxisOpts(opts.YAxis{Name: "latency (ms)"}),
				charts.WithXAxisOpts(opts.XAxis{Name: "percentile"}),
			)
			bar.SetXAxis([]string{"p50", "p90", "p99", "p99.9"})
			for i, p := range []string{"round-robin", "least-queue", "latency-aware", "adaptive", "power-of-two-choices", "vllm-data-parallel", "llm-d", "prequal"} {
				base := 10 + 4*float64(i)
				bar.AddSeries(p, []opts.BarData{{Value: base}, {Value: base * 2}, {Value: base * 3}, {Value: base * 5}})
			}
			return bar
		}},
		{"pie-legend", func() Chart {
			pie := charts.NewPie()
			pie.SetGlobalOptions(charts.WithTitleOpts(opts.Title{Title: "Requests by replica", Subtitle: "steady scenario, one seed"}),
				charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true)}))
			var items []opts.PieData
			for i := range 9 {
				items = append(items, opts.PieData{Name: fmt.Sprintf("replica %d (speed %.1f)", i+1, 1+0.1*float64(i)), Value: 10 + i})
			}
			pie.AddSeries("requests", items)
			return pie
		}},
	}
	return append(out, samples...)
}

// userChartTitles are the titles given as lab.Chart's title argument.
var userChartTitles = map[string]string{"docs-lab-squares": "Squares"}

// TestBrowserUserChartLayout draws charts built with go-echarts' defaults,
// as routelab lays them out, at 640, 1000 and 1600 px — interactive, static
// and as SVG — and checks with the layout test's rules that no text
// overlaps another and none leaves the figure.
func TestBrowserUserChartLayout(t *testing.T) {
	b := startBrowser(t)
	h := openHarness(t, b)
	r := NewSVGRenderer(1)
	for _, c := range userCharts() {
		t.Run(c.name, func(t *testing.T) {
			for _, w := range []int{640, 1000, 1600} {
				f, err := New(c.build(), Spec{ID: "user-" + c.name, Title: userChartTitles[c.name], Width: w})
				if err != nil {
					t.Fatal(err)
				}
				h.check(t, fmt.Sprintf("user-%s-html-%d", c.name, w), f.OptionJS(), w, f.htmlHeight, b.shots, 0)
				h.check(t, fmt.Sprintf("user-%s-static-%d", c.name, w), f.staticJS, w, f.height, b.shots, 0)
				svg, err := f.WithSVGRenderer(r).SVG()
				if err != nil {
					t.Fatal(err)
				}
				h.checkSVG(t, fmt.Sprintf("user-%s-svg-%d", c.name, w), svg, f.staticJS, w, f.height, b.shots, 0)
			}
		})
	}
}
