package plot

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/routelab/routelab/engine"
)

// Colours of built-in policies are part of the project's look: figures
// already published use them, so changing one is a deliberate act.
func TestBuiltInPolicyColors(t *testing.T) {
	p := DefaultPalette()
	want := map[string]string{
		"round-robin": "#3b7ddd", "least-queue": "#2f9e44", "latency-aware": "#9061d6",
		"adaptive": AccentColor, "random": "#868e96", "p2c": "#0c9a9a", "weighted-rr": "#ae3ec9",
		"jiq": "#759438", "sed": "#2a6df4", "least-kv": "#c15c5c",
	}
	for name, c := range want {
		if got := p.Color(name); got != c {
			t.Errorf("Color(%q) = %s, want %s", name, got, c)
		}
	}
	for _, name := range engine.PolicyNames() {
		if _, ok := p.fixed[name]; !ok {
			t.Errorf("the built-in policy %s has no fixed colour in DefaultPalette", name)
		}
	}
}

func TestPolicyKey(t *testing.T) {
	for in, want := range map[string]string{
		"round-robin": "round-robin", "RoundRobin": "round-robin", "round_robin": "round-robin",
		"Least Queue": "least-queue", "LatencyAware": "latency-aware", "P2C": "p2c",
		"  adaptive ": "adaptive", "a--b__c": "a-b-c", "": "", "my policy 2": "my-policy-2",
	} {
		if got := PolicyKey(in); got != want {
			t.Errorf("PolicyKey(%q) = %q, want %q", in, got, want)
		}
	}
	if DefaultPalette().Color("LeastQueue") != DefaultPalette().Color("least-queue") {
		t.Error("spellings of one policy got different colours")
	}
}

// Every colour must read on a white page and on a dark one (#1e1e1e, the
// lightest of the common dark notebook backgrounds): WCAG contrast ≥ 3.
func TestPaletteReadableOnLightAndDark(t *testing.T) {
	p := DefaultPalette()
	all := allColors(p)
	for _, c := range all {
		if r := contrast(c, "#ffffff"); r < 3 {
			t.Errorf("%s on white: contrast %.2f < 3", c, r)
		}
		if r := contrast(c, "#1e1e1e"); r < 3 {
			t.Errorf("%s on #1e1e1e: contrast %.2f < 3", c, r)
		}
	}
}

// Colours must be told apart: CIE76 ΔE ≥ 20 between any two.
func TestPaletteColorsDistinct(t *testing.T) {
	p := DefaultPalette()
	all := allColors(p)
	for i, a := range all {
		for _, b := range all[i+1:] {
			if d := deltaE(a, b); d < 20 {
				t.Errorf("%s and %s differ by ΔE %.1f < 20", a, b, d)
			}
		}
	}
}

func TestFurtherNamesStableAndDistinct(t *testing.T) {
	p := DefaultPalette()
	var names []string
	for i := range len(p.further) {
		names = append(names, "custom-"+strconv.Itoa(i))
	}
	names = append(names, "adaptive")
	got := p.Assign(names)
	if got[len(got)-1] != AccentColor {
		t.Errorf("adaptive got %s in a mixed figure", got[len(got)-1])
	}
	seen := map[string]string{}
	for i, c := range got {
		if prev, ok := seen[c]; ok {
			t.Errorf("%s and %s share %s", prev, names[i], c)
		}
		seen[c] = names[i]
	}
	// Series order must not change anyone's colour.
	rev := slices.Clone(names)
	slices.Reverse(rev)
	back := p.Assign(rev)
	slices.Reverse(back)
	if !slices.Equal(got, back) {
		t.Errorf("Assign depends on order: %v vs %v", got, back)
	}
	// Alone, a name gets its own stable colour.
	for _, n := range names {
		if a := p.Assign([]string{n}); a[0] != p.Color(n) {
			t.Errorf("Assign([%s]) = %s, Color = %s", n, a[0], p.Color(n))
		}
	}
	// More names than colours still get colours, deterministically.
	many := append(slices.Clone(names), "x1", "x2", "x3")
	if !slices.Equal(p.Assign(many), p.Assign(many)) || slices.Contains(p.Assign(many), "") {
		t.Error("Assign over more names than colours is not deterministic or leaves a name uncoloured")
	}
}

func TestPaletteWith(t *testing.T) {
	p, err := DefaultPalette().With("My Policy", "#123ABC")
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Color("my-policy"); got != "#123abc" {
		t.Errorf("Color = %s", got)
	}
	if DefaultPalette().Color("my-policy") == "#123abc" {
		t.Error("With changed the default palette")
	}
	for _, bad := range []string{"red", "#12345", "#1234567", "123456"} {
		if _, err := DefaultPalette().With("x", bad); err == nil {
			t.Errorf("With accepted colour %q", bad)
		}
	}
	if _, err := DefaultPalette().With(" ", "#123456"); err == nil {
		t.Error("With accepted an empty name")
	}
}

// allColors lists a palette's colours: fixed ones in name order, then the further ones.
func allColors(p *Palette) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(p.fixed)) {
		out = append(out, p.fixed[k])
	}
	return append(out, p.further...)
}

func rgb(hex string) [3]float64 {
	var out [3]float64
	for i := range 3 {
		v, _ := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		out[i] = float64(v) / 255
	}
	return out
}

func linear(c float64) float64 {
	if c <= 0.04045 {
		return c / 12.92
	}
	return math.Pow((c+0.055)/1.055, 2.4)
}

func relLuminance(hex string) float64 {
	c := rgb(hex)
	return 0.2126*linear(c[0]) + 0.7152*linear(c[1]) + 0.0722*linear(c[2])
}

func contrast(a, b string) float64 {
	la, lb := relLuminance(a), relLuminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

func deltaE(a, b string) float64 {
	la, lb := lab(a), lab(b)
	return math.Sqrt(math.Pow(la[0]-lb[0], 2) + math.Pow(la[1]-lb[1], 2) + math.Pow(la[2]-lb[2], 2))
}

func lab(hex string) [3]float64 {
	c := rgb(hex)
	r, g, b := linear(c[0]), linear(c[1]), linear(c[2])
	x := (0.4124*r + 0.3576*g + 0.1805*b) / 0.95047
	y := 0.2126*r + 0.7152*g + 0.0722*b
	z := (0.0193*r + 0.1192*g + 0.9505*b) / 1.08883
	f := func(t float64) float64 {
		if t > 0.008856 {
			return math.Cbrt(t)
		}
		return 7.787*t + 16.0/116
	}
	return [3]float64{116*f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))}
}
