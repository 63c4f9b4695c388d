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
// workarounds), runtime.js (what runs in the browser), then fragment.go and
// svg.go; figures.go, layout.go and comparison.go for the builders.
// docs/plotting.md describes the rendering model for users.
package plot
