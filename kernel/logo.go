package kernel

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
)

// Logo draws routelab's kernel logo as a size×size PNG: a router node
// fanning out to three replicas on a rounded teal tile. It is drawn here,
// pixel by pixel with 4×4 supersampling, so the bytes are the same on every
// run and no artwork is copied.
func Logo(size int) ([]byte, error) {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	const ss = 4
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			var r, g, b, a float64
			for sy := 0; sy < ss; sy++ {
				for sx := 0; sx < ss; sx++ {
					u := (float64(x) + (float64(sx)+0.5)/ss) / float64(size)
					v := (float64(y) + (float64(sy)+0.5)/ss) / float64(size)
					c := logoSample(u, v)
					r, g, b, a = r+c.r*c.a, g+c.g*c.a, b+c.b*c.a, a+c.a
				}
			}
			if a == 0 {
				continue
			}
			img.SetNRGBA(x, y, color.NRGBA{
				R: uint8(math.Round(r / a * 255)), G: uint8(math.Round(g / a * 255)),
				B: uint8(math.Round(b / a * 255)), A: uint8(math.Round(a / ss / ss * 255)),
			})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

type rgba struct{ r, g, b, a float64 }

// logoSample is the logo's colour at (u, v) in the unit square.
func logoSample(u, v float64) rgba {
	if !inRoundedSquare(u, v, 0.02, 0.2) {
		return rgba{}
	}
	white := rgba{1, 1, 1, 1}
	router := [2]float64{0.25, 0.5}
	replicas := [3][2]float64{{0.76, 0.24}, {0.76, 0.5}, {0.76, 0.76}}
	if math.Hypot(u-router[0], v-router[1]) < 0.12 {
		return white
	}
	for _, p := range replicas {
		if math.Hypot(u-p[0], v-p[1]) < 0.085 {
			return rgba{0.99, 0.78, 0.33, 1}
		}
		if segmentDistance(u, v, router, p) < 0.035 {
			return white
		}
	}
	return rgba{0.09, 0.42, 0.47, 1}
}

func inRoundedSquare(u, v, margin, radius float64) bool {
	lo, hi := margin+radius, 1-margin-radius
	du := math.Max(0, math.Max(lo-u, u-hi))
	dv := math.Max(0, math.Max(lo-v, v-hi))
	return u >= margin && u <= 1-margin && v >= margin && v <= 1-margin && math.Hypot(du, dv) <= radius
}

func segmentDistance(u, v float64, a, b [2]float64) float64 {
	dx, dy := b[0]-a[0], b[1]-a[1]
	t := ((u-a[0])*dx + (v-a[1])*dy) / (dx*dx + dy*dy)
	t = math.Max(0, math.Min(1, t))
	return math.Hypot(u-a[0]-t*dx, v-a[1]-t*dy)
}
