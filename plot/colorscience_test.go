package plot

import (
	"math"
	"strconv"
)

// Colour science for the palette tests: sRGB to CIELAB (D65), colour-vision
// deficiency simulated with the matrices of Machado, Oliveira and Fernandes
// (2009) at severity 1.0 (dichromacy), applied to linear RGB as in their
// paper and in colorspacious, and the CIEDE2000 colour difference (Sharma,
// Wu and Dalal 2005).

// vision is a way of seeing a colour: normal, a simulated deficiency, or
// greyscale (print).
type vision struct {
	name string
	see  func(lin [3]float64) [3]float64
}

func visions() []vision {
	return []vision{
		{"normal vision", func(c [3]float64) [3]float64 { return c }},
		{"protanopia", cvd(machadoProtan)},
		{"deuteranopia", cvd(machadoDeutan)},
		{"tritanopia", cvd(machadoTritan)},
		{"greyscale", greyscale},
	}
}

// Machado et al. (2009), Table 1 at severity 1.0.
var (
	machadoProtan = [3][3]float64{{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}}
	machadoDeutan = [3][3]float64{{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}}
	machadoTritan = [3][3]float64{{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}}
)

func cvd(m [3][3]float64) func([3]float64) [3]float64 {
	return func(c [3]float64) [3]float64 {
		var out [3]float64
		for i := range 3 {
			out[i] = math.Min(1, math.Max(0, m[i][0]*c[0]+m[i][1]*c[1]+m[i][2]*c[2]))
		}
		return out
	}
}

// greyscale keeps the relative luminance, as a greyscale print does.
func greyscale(c [3]float64) [3]float64 {
	y := 0.2126*c[0] + 0.7152*c[1] + 0.0722*c[2]
	return [3]float64{y, y, y}
}

// linearRGB decodes "#rrggbb" to linear-light RGB in [0, 1].
func linearRGB(hex string) [3]float64 {
	var out [3]float64
	for i := range 3 {
		v, _ := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		c := float64(v) / 255
		if c <= 0.04045 {
			out[i] = c / 12.92
		} else {
			out[i] = math.Pow((c+0.055)/1.055, 2.4)
		}
	}
	return out
}

// labOf converts linear RGB to CIELAB under D65.
func labOf(c [3]float64) [3]float64 {
	x := (0.4124564*c[0] + 0.3575761*c[1] + 0.1804375*c[2]) / 0.95047
	y := 0.2126729*c[0] + 0.7151522*c[1] + 0.0721750*c[2]
	z := (0.0193339*c[0] + 0.1191920*c[1] + 0.9503041*c[2]) / 1.08883
	f := func(t float64) float64 {
		if t > 216.0/24389 {
			return math.Cbrt(t)
		}
		return (24389.0/27*t + 16) / 116
	}
	return [3]float64{116*f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))}
}

// seen is the CIELAB colour of hex as v sees it.
func seen(v vision, hex string) [3]float64 { return labOf(v.see(linearRGB(hex))) }

// ciede2000 is the CIEDE2000 difference of two CIELAB colours (kL = kC =
// kH = 1).
func ciede2000(a, b [3]float64) float64 {
	deg := math.Pi / 180
	c1, c2 := math.Hypot(a[1], a[2]), math.Hypot(b[1], b[2])
	cm := (c1 + c2) / 2
	g := 0.5 * (1 - math.Sqrt(math.Pow(cm, 7)/(math.Pow(cm, 7)+math.Pow(25, 7))))
	a1, a2 := (1+g)*a[1], (1+g)*b[1]
	cp1, cp2 := math.Hypot(a1, a[2]), math.Hypot(a2, b[2])
	hue := func(x, y float64) float64 {
		if x == 0 && y == 0 {
			return 0
		}
		h := math.Atan2(y, x) / deg
		if h < 0 {
			h += 360
		}
		return h
	}
	h1, h2 := hue(a1, a[2]), hue(a2, b[2])
	dL, dC := b[0]-a[0], cp2-cp1
	var dh float64
	switch {
	case cp1*cp2 == 0:
	case math.Abs(h2-h1) <= 180:
		dh = h2 - h1
	case h2-h1 > 180:
		dh = h2 - h1 - 360
	default:
		dh = h2 - h1 + 360
	}
	dH := 2 * math.Sqrt(cp1*cp2) * math.Sin(dh/2*deg)
	lm, cpm := (a[0]+b[0])/2, (cp1+cp2)/2
	hm := h1 + h2
	switch {
	case cp1*cp2 == 0:
	case math.Abs(h1-h2) <= 180:
		hm /= 2
	case h1+h2 < 360:
		hm = (h1 + h2 + 360) / 2
	default:
		hm = (h1 + h2 - 360) / 2
	}
	t := 1 - 0.17*math.Cos((hm-30)*deg) + 0.24*math.Cos(2*hm*deg) + 0.32*math.Cos((3*hm+6)*deg) - 0.20*math.Cos((4*hm-63)*deg)
	dTheta := 30 * math.Exp(-math.Pow((hm-275)/25, 2))
	rc := 2 * math.Sqrt(math.Pow(cpm, 7)/(math.Pow(cpm, 7)+math.Pow(25, 7)))
	sl := 1 + 0.015*math.Pow(lm-50, 2)/math.Sqrt(20+math.Pow(lm-50, 2))
	sc := 1 + 0.045*cpm
	sh := 1 + 0.015*cpm*t
	rt := -math.Sin(2*dTheta*deg) * rc
	return math.Sqrt(math.Pow(dL/sl, 2) + math.Pow(dC/sc, 2) + math.Pow(dH/sh, 2) + rt*(dC/sc)*(dH/sh))
}

// difference is the CIEDE2000 difference of two colours as v sees them.
func difference(v vision, a, b string) float64 { return ciede2000(seen(v, a), seen(v, b)) }

// cam02ucs converts linear RGB to CAM02-UCS (Luo, Cui and Li 2006) under
// the sRGB viewing conditions colorspacious uses by default: D65 white,
// adapting luminance 64/π/5 cd/m², background 20, average surround.
func cam02ucs(c [3]float64) [3]float64 {
	xyz := func(c [3]float64) [3]float64 {
		return [3]float64{
			100 * (0.4124564*c[0] + 0.3575761*c[1] + 0.1804375*c[2]),
			100 * (0.2126729*c[0] + 0.7151522*c[1] + 0.0721750*c[2]),
			100 * (0.0193339*c[0] + 0.1191920*c[1] + 0.9503041*c[2]),
		}
	}
	j, m, h := ciecam02(xyz(c), xyz([3]float64{1, 1, 1}))
	jp := 1.7 * j / (1 + 0.007*j)
	mp := math.Log(1+0.0228*m) / 0.0228
	return [3]float64{jp, mp * math.Cos(h), mp * math.Sin(h)}
}

// ciecam02 returns lightness J, colourfulness M and hue angle h (radians)
// of a colour (XYZ, Y of white 100) seen against white.
func ciecam02(x, white [3]float64) (j, m, h float64) {
	const yb, f, c, nc = 20.0, 1.0, 0.69, 1.0
	la := 64 / math.Pi / 5
	cat := [3][3]float64{{0.7328, 0.4296, -0.1624}, {-0.7036, 1.6975, 0.0061}, {0.0030, 0.0136, 0.9834}}
	hpe := [3][3]float64{{0.38971, 0.68898, -0.07868}, {-0.22981, 1.18340, 0.04641}, {0, 0, 1}}
	toHPE := mul3(hpe, inv3(cat))
	d := f * (1 - math.Exp((-la-42)/92)/3.6)
	k := 1 / (5*la + 1)
	fl := 0.2*math.Pow(k, 4)*5*la + 0.1*math.Pow(1-math.Pow(k, 4), 2)*math.Cbrt(5*la)
	n := yb / white[1]
	nbb := 0.725 * math.Pow(n, -0.2)
	z := 1.48 + math.Sqrt(n)
	rgbw := apply3(cat, white)
	adapt := func(x [3]float64) [3]float64 {
		rgb := apply3(cat, x)
		for i := range rgb {
			rgb[i] *= d*white[1]/rgbw[i] + 1 - d
		}
		p := apply3(toHPE, rgb)
		for i, v := range p {
			t := math.Pow(fl*math.Abs(v)/100, 0.42)
			p[i] = math.Copysign(400*t/(27.13+t), v) + 0.1
		}
		return p
	}
	achromatic := func(p [3]float64) float64 { return (2*p[0] + p[1] + p[2]/20 - 0.305) * nbb }
	pw, p := adapt(white), adapt(x)
	a, b := p[0]-12*p[1]/11+p[2]/11, (p[0]+p[1]-2*p[2])/9
	h = math.Atan2(b, a)
	j = 100 * math.Pow(achromatic(p)/achromatic(pw), c*z)
	et := (math.Cos(h+2) + 3.8) / 4
	t := 50000.0 / 13 * nc * nbb * et * math.Hypot(a, b) / (p[0] + p[1] + 21*p[2]/20)
	cc := math.Pow(t, 0.9) * math.Sqrt(j/100) * math.Pow(1.64-math.Pow(0.29, n), 0.73)
	return j, cc * math.Pow(fl, 0.25), h
}

func apply3(m [3][3]float64, v [3]float64) [3]float64 {
	var out [3]float64
	for i := range 3 {
		out[i] = m[i][0]*v[0] + m[i][1]*v[1] + m[i][2]*v[2]
	}
	return out
}

func mul3(a, b [3][3]float64) [3][3]float64 {
	var out [3][3]float64
	for i := range 3 {
		for j := range 3 {
			for k := range 3 {
				out[i][j] += a[i][k] * b[k][j]
			}
		}
	}
	return out
}

func inv3(m [3][3]float64) [3][3]float64 {
	det := m[0][0]*(m[1][1]*m[2][2]-m[1][2]*m[2][1]) - m[0][1]*(m[1][0]*m[2][2]-m[1][2]*m[2][0]) + m[0][2]*(m[1][0]*m[2][1]-m[1][1]*m[2][0])
	var out [3][3]float64
	for i := range 3 {
		for j := range 3 {
			// Cofactor of (j, i) over the determinant.
			r1, r2 := (j+1)%3, (j+2)%3
			c1, c2 := (i+1)%3, (i+2)%3
			out[i][j] = (m[r1][c1]*m[r2][c2] - m[r1][c2]*m[r2][c1]) / det
		}
	}
	return out
}

// ucsDistance is the CAM02-UCS colour difference of two colours as v sees
// them.
func ucsDistance(v vision, a, b string) float64 {
	p, q := cam02ucs(v.see(linearRGB(a))), cam02ucs(v.see(linearRGB(b)))
	return math.Sqrt(math.Pow(p[0]-q[0], 2) + math.Pow(p[1]-q[1], 2) + math.Pow(p[2]-q[2], 2))
}
