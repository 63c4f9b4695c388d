package plot

import (
	"bytes"
	"compress/zlib"
	"encoding/hex"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/routelab/routelab/internal/testutil"
)

// TestPDFExport prints every figure kind to PDF: each is a valid one-page
// PDF of the figure's size in points (72 to the inch, 96 CSS pixels), its
// text holds the title and every policy's name, and the same figure gives
// the same bytes.
func TestPDFExport(t *testing.T) {
	testutil.Chromium(t)
	r := NewSVGRenderer(1)
	for _, k := range figureKinds() {
		t.Run(k.name, func(t *testing.T) {
			f := buildKind(t, k.name).WithSVGRenderer(r)
			pdf, err := f.PDF()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(pdf, []byte("%PDF-1.")) || !bytes.HasSuffix(bytes.TrimSpace(pdf), []byte("%%EOF")) {
				t.Fatalf("not a PDF: %q … %q", pdf[:min(16, len(pdf))], pdf[max(0, len(pdf)-16):])
			}
			w, h := f.Size()
			box := regexp.MustCompile(`/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]`).FindAllSubmatch(pdf, -1)
			if len(box) != 1 {
				t.Fatalf("%d pages, want 1", len(box))
			}
			if bw, bh := atof(t, box[0][1]), atof(t, box[0][2]); abs(bw-float64(w)*0.75) > 0.5 || abs(bh-float64(h)*0.75) > 0.5 {
				t.Errorf("page %g×%g pt, want %g×%g (the figure at 96 px to the inch)", bw, bh, float64(w)*0.75, float64(h)*0.75)
			}
			text := pdfText(t, pdf)
			for _, want := range append([]string{f.Title()}, k.policies...) {
				if !strings.Contains(text, want) {
					t.Errorf("the PDF's text lacks %q:\n%s", want, text)
				}
			}
			again, err := f.PDF()
			if err != nil || !bytes.Equal(pdf, again) {
				t.Errorf("a second export differs (%v)", err)
			}
		})
	}
}

func atof(t *testing.T, b []byte) float64 {
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func abs(x float64) float64 { return max(x, -x) }

// pdfText extracts the text of the PDFs Chromium writes (Skia): pages whose
// fonts are Type0 with a ToUnicode map, text shown with hex strings by Tj
// and TJ. Each text object becomes a line; ligatures are spelled out.
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	objs := pdfObjects(t, pdf)
	var out strings.Builder
	for _, page := range objs {
		if !bytes.Contains(page.dict, []byte("/Type /Page\n")) {
			continue
		}
		fonts := map[string]map[string]string{}
		for _, m := range regexp.MustCompile(`/(F\d+) (\d+) 0 R`).FindAllSubmatch(page.dict, -1) {
			fonts[string(m[1])] = toUnicode(t, objs, objs[string(m[2])].dict)
		}
		content := regexp.MustCompile(`/Contents (\d+) 0 R`).FindSubmatch(page.dict)
		if content == nil {
			t.Fatal("a page without contents")
		}
		showText(&out, objs[string(content[1])].stream, fonts)
	}
	return strings.NewReplacer("ﬁ", "fi", "ﬂ", "fl", "ﬀ", "ff").Replace(out.String())
}

type pdfObject struct{ dict, stream []byte }

var (
	pdfObj    = regexp.MustCompile(`(?s)(\d+) 0 obj\s*(.*?)endobj`)
	pdfStream = regexp.MustCompile(`(?s)^(.*?)stream\r?\n(.*)\r?\nendstream`)
)

func pdfObjects(t *testing.T, pdf []byte) map[string]pdfObject {
	t.Helper()
	out := map[string]pdfObject{}
	for _, m := range pdfObj.FindAllSubmatch(pdf, -1) {
		o := pdfObject{dict: m[2]}
		if s := pdfStream.FindSubmatch(m[2]); s != nil {
			o.dict, o.stream = s[1], s[2]
			if bytes.Contains(o.dict, []byte("/FlateDecode")) {
				zr, err := zlib.NewReader(bytes.NewReader(o.stream))
				if err != nil {
					t.Fatalf("object %s: %v", m[1], err)
				}
				if o.stream, err = io.ReadAll(zr); err != nil {
					t.Fatalf("object %s: %v", m[1], err)
				}
			}
		}
		out[string(m[1])] = o
	}
	return out
}

// toUnicode reads a Type0 font's ToUnicode CMap: glyph codes (hex) to text.
func toUnicode(t *testing.T, objs map[string]pdfObject, font []byte) map[string]string {
	t.Helper()
	ref := regexp.MustCompile(`/ToUnicode (\d+) 0 R`).FindSubmatch(font)
	if ref == nil {
		t.Fatalf("font without ToUnicode: %s", font)
	}
	cmap := objs[string(ref[1])].stream
	out := map[string]string{}
	for _, m := range regexp.MustCompile(`<([0-9A-F]{4})> <([0-9A-F]+)>\n`).FindAllSubmatch(cmap, -1) {
		out[string(m[1])] = utf16Hex(m[2], 0)
	}
	for _, m := range regexp.MustCompile(`<([0-9A-F]{4})> <([0-9A-F]{4})> <([0-9A-F]+)>`).FindAllSubmatch(cmap, -1) {
		lo, _ := strconv.ParseUint(string(m[1]), 16, 16)
		hi, _ := strconv.ParseUint(string(m[2]), 16, 16)
		for c := lo; c <= hi; c++ {
			out[strings.ToUpper(strconv.FormatUint(c|0x10000, 16)[1:])] = utf16Hex(m[3], int(c-lo))
		}
	}
	return out
}

// utf16Hex decodes hex UTF-16BE text, its last unit increased by add.
func utf16Hex(h []byte, add int) string {
	b, _ := hex.DecodeString(string(h))
	var units []rune
	for i := 0; i+1 < len(b); i += 2 {
		units = append(units, rune(b[i])<<8|rune(b[i+1]))
	}
	units[len(units)-1] += rune(add)
	return string(units)
}

// showText writes the strings a content stream shows, through the fonts'
// maps, one line per text object (BT … ET: Skia breaks a line into
// several strings where kerning moves a glyph).
func showText(out *strings.Builder, content []byte, fonts map[string]map[string]string) {
	tokens := regexp.MustCompile(`/(F\d+) [\d.]+ Tf|<([0-9A-Fa-f]*)> Tj|\[([^\]]*)\] TJ|\bET\b`)
	var font map[string]string
	for _, m := range tokens.FindAllSubmatch(content, -1) {
		switch {
		case m[1] != nil:
			font = fonts[string(m[1])]
		case m[2] != nil:
			out.WriteString(decodeShown(m[2], font))
		case m[3] != nil:
			for _, s := range regexp.MustCompile(`<([0-9A-Fa-f]*)>`).FindAllSubmatch(m[3], -1) {
				out.WriteString(decodeShown(s[1], font))
			}
		default:
			out.WriteString("\n")
		}
	}
}

func decodeShown(h []byte, font map[string]string) string {
	var b strings.Builder
	s := strings.ToUpper(string(h))
	for i := 0; i+4 <= len(s); i += 4 {
		b.WriteString(font[s[i:i+4]])
	}
	return b.String()
}
