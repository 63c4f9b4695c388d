package notebooks_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/routelab/routelab/internal/testutil"
	"github.com/routelab/routelab/kernel"
	"github.com/routelab/routelab/plot"
)

// renderedMarkdown is what a reader sees of each markdown cell in the HTML
// export: its list items, its links, and its text outside code.
type renderedMarkdown struct {
	Items []string `json:"items"`
	Links []string `json:"links"`
	Text  string   `json:"text"`
}

const readMarkdownCells = `(function () {
  var cells = document.querySelectorAll("main div.cell.markdown");
  return Array.prototype.map.call(cells, function (c) {
    var items = Array.prototype.map.call(c.querySelectorAll("li"), function (li) { return li.textContent.trim().slice(0, 80); });
    var links = Array.prototype.map.call(c.querySelectorAll("a"), function (a) { return a.getAttribute("href"); });
    var walker = document.createTreeWalker(c, NodeFilter.SHOW_TEXT), text = "";
    while (walker.nextNode()) {
      var n = walker.currentNode;
      if (!n.parentElement.closest("code, pre")) text += n.nodeValue;
    }
    return {items: items, links: links, text: text};
  });
})()`

var (
	fence      = regexp.MustCompile("(?ms)^```.*?^```")
	listMarker = regexp.MustCompile(`(?m)^\s*([-*]|\d+\.)\s`)
	// leftovers are Markdown or TeX that should never reach a reader as text.
	leftovers = []string{"**", "`", "](", "<!--", "$$", `\(`, `\[`}
)

// markdownProblems compares each markdown cell's source with what Chromium
// shows of it: the list items must be exactly the lines written as list
// items ("- ", "* " or "1. "), so a line that starts with an operator (a
// formula wrapped before "+") does not become a bullet; no Markdown syntax
// may show as text; relative links must name files that exist (from dir).
func markdownProblems(nb *kernel.Notebook, shown []renderedMarkdown, dir string) []string {
	var sources []string
	var at []int
	for i, c := range nb.Cells {
		if c.Type == "markdown" {
			sources, at = append(sources, c.Source), append(at, i)
		}
	}
	if len(shown) != len(sources) {
		return []string{fmt.Sprintf("the export shows %d markdown cells, the notebook has %d", len(shown), len(sources))}
	}
	var problems []string
	for k, src := range sources {
		where := fmt.Sprintf("cells[%d]", at[k])
		want := len(listMarker.FindAllString(fence.ReplaceAllString(src, ""), -1))
		if got := len(shown[k].Items); got != want {
			problems = append(problems, fmt.Sprintf("%s renders %d list items where its source writes %d: %q", where, got, want, shown[k].Items))
		}
		for _, l := range leftovers {
			if i := strings.Index(shown[k].Text, l); i >= 0 {
				problems = append(problems, fmt.Sprintf("%s shows %q as text: …%s…", where, l, excerpt(shown[k].Text, i)))
			}
		}
		for _, href := range shown[k].Links {
			target, _, _ := strings.Cut(href, "#")
			if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			if _, err := os.Stat(filepath.Join(dir, target)); err != nil {
				problems = append(problems, fmt.Sprintf("%s links to %s, which does not exist", where, href))
			}
		}
	}
	return problems
}

func excerpt(s string, i int) string {
	lo, hi := max(0, i-30), min(len(s), i+30)
	return s[lo:hi]
}

// readMarkdown returns what Chromium shows of a page's markdown cells.
func readMarkdown(t *testing.T, page []byte) []renderedMarkdown {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var shown []renderedMarkdown
	if err := plot.EvaluatePage(ctx, page, readMarkdownCells, &shown); err != nil {
		t.Fatal(err)
	}
	return shown
}

// The check finds what it is for: a formula wrapped before "+" becomes a
// bullet, and a broken link and stray Markdown show.
func TestMarkdownCheckCatchesMisrendering(t *testing.T) {
	testutil.Chromium(t)
	t.Setenv("TMPDIR", t.TempDir())
	path := filepath.Join(t.TempDir(), "bad.ipynb")
	nb := `{"cells": [
 {"cell_type": "markdown", "id": "a", "metadata": {}, "source": ["The M/D/1 mean is E[T] = m\n", "+ λm²/(2(1 − λm)) + Δ/2.\n"]},
 {"cell_type": "markdown", "id": "b", "metadata": {}, "source": ["See [the model](nowhere.md) and **unclosed emphasis.\n", "- one item\n"]},
 {"cell_type": "code", "id": "c", "metadata": {}, "execution_count": null, "outputs": [], "source": ["1 + 1"]}
], "metadata": {"kernelspec": {"name": "routelab", "display_name": "Go (routelab)", "language": "go"}}, "nbformat": 4, "nbformat_minor": 5}`
	if err := os.WriteFile(path, []byte(nb), 0o644); err != nil {
		t.Fatal(err)
	}
	got, page := export(t, path)
	problems := strings.Join(markdownProblems(got, readMarkdown(t, page), "."), "\n")
	for _, want := range []string{
		"cells[0] renders 1 list items where its source writes 0",
		"cells[1] links to nowhere.md, which does not exist",
		`cells[1] shows "**" as text`,
	} {
		if !strings.Contains(problems, want) {
			t.Errorf("the check did not report %q; it reported:\n%s", want, problems)
		}
	}
}
