package plot

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/routelab/routelab/internal/testutil"
)

func TestPNGExport(t *testing.T) {
	testutil.Chromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, name := range []string{"line-events", "heatmap"} {
		f := sampleFigure(t, name)
		buf, err := f.PNGContext(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(t.TempDir(), name+".png"), buf, 0o644); err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(buf))
		if err != nil {
			t.Fatalf("%s: not a PNG: %v", name, err)
		}
		w, h := f.Size()
		if b := img.Bounds(); b.Dx() != defaultPNGScale*w || b.Dy() != defaultPNGScale*h {
			t.Errorf("%s: %v, want %d×%d", name, b, defaultPNGScale*w, defaultPNGScale*h)
		}
		// An opaque white background with a drawn chart on it.
		colors := map[[4]uint32]bool{}
		for y := 0; y < img.Bounds().Dy(); y += 7 {
			for x := 0; x < img.Bounds().Dx(); x += 7 {
				r, g, b, a := img.At(x, y).RGBA()
				colors[[4]uint32{r >> 8, g >> 8, b >> 8, a >> 8}] = true
			}
		}
		if r, g, b, a := img.At(1, img.Bounds().Dy()-2).RGBA(); r>>8 != 255 || g>>8 != 255 || b>>8 != 255 || a>>8 != 255 {
			t.Errorf("%s: corner pixel %d,%d,%d,%d, want opaque white", name, r>>8, g>>8, b>>8, a>>8)
		}
		if len(colors) < 20 || len(buf) < 20_000 {
			t.Errorf("%s: %d colours, %d bytes: nothing much drawn", name, len(colors), len(buf))
		}
	}
}

// WithScale sets the PNG's pixels per CSS pixel; a bad scale is an error
// naming it and what is allowed.
func TestPNGScale(t *testing.T) {
	f, err := sampleFigure(t, "bar").WithScale(3)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []float64{0, 0.2, 9, mathNaN()} {
		if _, err := f.WithScale(bad); err == nil || !strings.Contains(err.Error(), "use 0.5 to 8") {
			t.Errorf("WithScale(%g): %v", bad, err)
		}
	}
	testutil.Chromium(t)
	buf, err := f.PNG()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		t.Fatal(err)
	}
	if w, h := f.Size(); img.Bounds().Dx() != 3*w || img.Bounds().Dy() != 3*h {
		t.Errorf("PNG %v, want %d×%d", img.Bounds(), 3*w, 3*h)
	}
}

func TestNoChromiumIsAClearError(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := findBrowser([]string{filepath.Join(t.TempDir(), "chromium")})
	if !errors.Is(err, ErrNoChromium) || !strings.Contains(err.Error(), "apt-get install chromium") {
		t.Fatalf("err = %v", err)
	}
}

// CheckPage counts the figures that drew offline and fails on a page whose
// figure cannot draw or that has none.
func TestCheckPage(t *testing.T) {
	testutil.Chromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	page, err := NewPage("two", sampleFigure(t, "bar"), sampleFigure(t, "heatmap")).Render()
	if err != nil {
		t.Fatal(err)
	}
	if n, err := CheckPage(ctx, page); err != nil || n != 2 {
		t.Errorf("CheckPage of a two-figure page = %d, %v", n, err)
	}
	// A light fragment alone has no library: it never draws.
	lonely := []byte("<!doctype html><html><body>" + sampleFigure(t, "bar").LightFragment() + "</body></html>")
	if n, err := CheckPage(ctx, lonely); err == nil {
		t.Errorf("a figure without its library drew? %d", n)
	}
	if _, err := CheckPage(ctx, []byte("<!doctype html><p>no figures</p>")); err == nil {
		t.Error("a page without figures passed")
	}
}
