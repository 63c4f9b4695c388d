package docmark

import (
	"errors"
	"strings"
	"testing"
)

const sample = `# Page

| a | b |
<!-- gen model.constants -->
| old | table |
<!-- /gen -->

It selects c = <!-- gen study.selected -->0.35<!-- /gen --> and runs
<!-- gen cli.reference -->
kept
<!-- /gen -->
`

func render(name string) (string, error) {
	switch name {
	case "model.constants":
		return "| new | table |\n| second | row |\n", nil
	case "study.selected":
		return "0.5", nil
	}
	return "", errors.New("no such part")
}

func TestPartsFindsBlocksAndInlineParts(t *testing.T) {
	parts, err := Parts(sample)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range parts {
		got = append(got, p.Name+"@"+string(rune('0'+p.Line))+map[bool]string{true: " block", false: " inline"}[p.Block()])
	}
	want := "model.constants@4 block,study.selected@8 inline,cli.reference@9 block"
	if strings.Join(got, ",") != want {
		t.Errorf("parts %v, want %s", got, want)
	}
}

func TestRewriteTouchesOnlyTheOwnersParts(t *testing.T) {
	out, err := Rewrite(sample, "model", render)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(sample, "| old | table |\n", "| new | table |\n| second | row |\n", 1)
	if out != want {
		t.Errorf("rewrite gave\n%s\nwant\n%s", out, want)
	}
	out, err = Rewrite(out, "study", render)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "c = <!-- gen study.selected -->0.5<!-- /gen --> and") {
		t.Errorf("inline part not rewritten in place:\n%s", out)
	}
	again, _ := Rewrite(out, "study", render)
	if again != out {
		t.Error("rewriting twice changed the document")
	}
}

func TestCheckReportsEachDriftWithItsLine(t *testing.T) {
	drifts, err := Check("page.md", sample, "study", render)
	if err != nil {
		t.Fatal(err)
	}
	if len(drifts) != 1 || drifts[0].Name != "study.selected" || drifts[0].Line != 8 || drifts[0].Have != "0.35" || drifts[0].Want != "0.5" {
		t.Fatalf("drifts %+v, want study.selected at line 8, 0.35 → 0.5", drifts)
	}
	if msg := drifts[0].Error(); !strings.Contains(msg, "page.md:8: study.selected") {
		t.Errorf("message %q names no file and line", msg)
	}
	fixed, _ := Rewrite(sample, "study", render)
	if drifts, _ := Check("page.md", fixed, "study", render); len(drifts) != 0 {
		t.Errorf("a rewritten page still drifts: %+v", drifts)
	}
}

func TestRenderErrorsNameThePart(t *testing.T) {
	_, err := Rewrite(sample, "cli", render)
	if err == nil || !strings.Contains(err.Error(), "line 9: cli.reference: no such part") {
		t.Errorf("error %v, want the part's line and name", err)
	}
	_, err = Rewrite("x <!-- gen a.b --><!-- /gen -->", "a", func(string) (string, error) { return "two\nlines", nil })
	if err == nil || !strings.Contains(err.Error(), "inline") {
		t.Errorf("an inline part rendering two lines gave %v", err)
	}
}

func TestMalformedDocumentsAreRefused(t *testing.T) {
	for doc, want := range map[string]string{
		"a\n<!-- gen model.x -->\nnever closed":                                    "line 2: part model.x is never closed",
		"a\n<!-- /gen -->":                                                         "line 2: <!-- /gen --> closes no part",
		"<!-- /gen --> <!-- gen a.b --> <!-- /gen -->":                             "line 1: <!-- /gen --> closes no part",
		"<!-- gen a.b -->\n<!-- gen a.c -->\n<!-- /gen -->":                        "line 2: a part opens inside part a.b (line 1)",
		"<!-- gen Model -->x<!-- /gen -->":                                         `"Model" is not a part name`,
		"<!-- gen model -->x<!-- /gen -->":                                         `"model" is not a part name`,
		"ok <!-- gen a.b -->x<!-- /gen -->\n\n<!-- gen a.b..c -->x<!-- /gen -->\n": `line 3: "a.b..c" is not a part name`,
	} {
		if _, err := Parts(doc); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parts(%q) = %v, want an error containing %q", doc, err, want)
		}
	}
}

func TestStripLeavesTheProse(t *testing.T) {
	got, err := Strip(sample)
	if err != nil {
		t.Fatal(err)
	}
	want := "# Page\n\n| a | b |\n\n\nIt selects c =  and runs\n\n"
	if got != want {
		t.Errorf("Strip gave %q, want %q", got, want)
	}
}

func TestNamesInOrderOnce(t *testing.T) {
	doc := sample + "<!-- gen model.constants -->x<!-- /gen --> <!-- gen model.a -->x<!-- /gen -->"
	names, err := Names(doc, "model")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(names, ",") != "model.constants,model.a" {
		t.Errorf("names %v", names)
	}
}

// Any document either parses into parts that lie inside it, in order, or
// is refused; rewriting a well-formed one with the text each part has gives
// the document back.
func FuzzParts(f *testing.F) {
	f.Add(sample)
	f.Add("<!-- gen a.b --><!-- /gen -->")
	f.Add("<!-- gen a.b -->\n<!-- /gen --><!-- /gen -->")
	f.Add("<!-- gen <!-- gen a.b --> -->")
	f.Fuzz(func(t *testing.T, doc string) {
		parts, err := Parts(doc)
		if err != nil {
			return
		}
		last := 0
		for _, p := range parts {
			if p.Start < last || p.End < p.Start || p.End > len(doc) || doc[p.Start:p.End] != p.Text {
				t.Fatalf("part %+v out of place in %q", p, doc)
			}
			last = p.End
		}
		texts := map[string]string{}
		normal := true
		for _, p := range parts {
			if t, seen := texts[p.Name]; seen && t != p.Text {
				normal = false
			}
			texts[p.Name] = p.Text
			if p.Block() && p.Text != "\n"+strings.Trim(p.Text, "\n")+"\n" || !p.Block() && strings.Contains(p.Text, "\n") {
				normal = false
			}
		}
		out := doc
		for _, p := range parts {
			out, err = Rewrite(out, p.Owner(), func(name string) (string, error) { return texts[name], nil })
			if err != nil {
				if normal {
					t.Fatalf("rewriting %q with its own texts: %v", doc, err)
				}
				return
			}
		}
		if normal && out != doc {
			t.Fatalf("rewriting %q with its own texts gave %q", doc, out)
		}
		if _, err := Strip(doc); err != nil {
			t.Fatalf("Strip refused a document Parts accepted: %v", err)
		}
	})
}
