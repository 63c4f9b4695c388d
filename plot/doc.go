// Package plot turns go-echarts v2.6.7 charts into figures that work
// offline everywhere routelab shows them: notebook outputs (classic
// Notebook, JupyterLab, nbconvert pages), standalone HTML pages, SVG, PNG
// and PDF files.
//
// A figure builder makes a go-echarts chart and hands it to New with a Spec
// (an explicit id, a title, a theme, a size). New reads the chart's option
// once, works around go-echarts 2.6.7's defects and colours each series by
// name from a Palette. The Figure then renders as:
//
//   - Fragment / HTML: one self-contained text/html snippet carrying the
//     ECharts library (gzip+base64, installed once per page); LightFragment
//     leaves the library out for pages that already have it;
//   - Page: a standalone document with many figures and the library inlined
//     once;
//   - SVG: ECharts' own server-side renderer run by goja in this process
//     (SVGRenderer keeps loaded runtimes for reuse);
//   - PNG and PDF: headless Chromium through chromedp (the PDF prints the
//     SVG export, so it stays vector).
//
// The ECharts library (5.4.3, the version go-echarts 2.6.7 expects) is
// embedded from assets/ and checked against its recorded SHA-256; nothing is
// ever loaded from the network.
//
// The figures of engine results are built on that: Comparison, LatencyCDF,
// Timeline, RateSweep, StudyHeatmap and Paired, plus ComparisonTable,
// ComparisonTableAs (LaTeX, Markdown) and Report. Each is laid out in Go
// from measured text (layout.go, axes.go, textmetrics.go), twice: for HTML
// at any width from 640 px, and for exports at their width, without
// controls. Each policy has one colour everywhere and a marker and a dash
// besides (palette.go).
//
// Read first: figure.go (Spec, Figure, New), option.go (the defect
// workarounds), runtime.js (what runs in the browser), then the renderings:
// fragment.go (Fragment, LightFragment), page.go (Page), svg.go
// (SVGRenderer), png.go (PNG export, finding Chromium, ErrNoChromium) and
// pdf.go (PDF export), with library.go (the embedded ECharts and its
// licences), jsvalue.go (the option tree as JSON or a script-safe
// JavaScript literal) and write.go (WriteFile: a file written whole or not
// at all).
//
// The builders: figures.go (what they share: the canvas, the components
// go-echarts cannot express, tooltips, formatting), figureopts.go (their
// Options) and chartopts.go (go-echarts options for hand-built charts:
// Toolbox, Zoom, EventMarks), then one file per figure —
// comparison.go, cdf.go (LatencyCDF), timeline.go, ratesweep.go,
// studyfig.go (StudyHeatmap), paired.go — and the tables and report:
// table.go (ComparisonTable), tabletext.go (ComparisonTableAs: text,
// LaTeX, Markdown) and report.go (ComparisonReport). Their layout is
// layout.go and axes.go over textmetrics.go (text widths from
// textmetrics_table.go, generated from DejaVu Sans by internal/fontgen);
// palette.go gives colours, markers and dashes; rulelabel.go places an
// SLO rule's label where no data mark is; userlayout.go lays out charts
// built in cells as routelab lays out its own; svgcompact.go strips what
// no one sees from ECharts' SVG export. inspect.go (EvaluatePage)
// opens a page in headless Chromium for the tests that check what a
// browser shows.
//
// A Figure shows itself through package display's duck-typed interfaces
// (display.HTMLer, display.SVGer and display.PNGer: Figure.HTML, SVG and
// PNG), as a ComparisonReport does through HTML, so a notebook and the
// console show them without plot registering anything.
// docs/plotting.md describes the rendering model for users.
package plot
