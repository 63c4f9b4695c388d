package plot

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/routelab/routelab/engine"
)

// Colours of built-in policies are part of the project's look: figures
// already published use them, so changing one is a deliberate act. (Issue
// 10 changed all but adaptive's, which stayed apart only under normal
// vision; see TestPolicyColoursUnderColourBlindness.)
func TestBuiltInPolicyColors(t *testing.T) {
	p := DefaultPalette()
	want := map[string]string{
		"round-robin": "#4767b3", "least-queue": "#289e7a", "latency-aware": "#b275ff",
		"adaptive": AccentColor, "random": "#a45542", "p2c": "#c67ba8", "weighted-rr": "#886078",
	}
	for name, c := range want {
		if got := p.Color(name); got != c {
			t.Errorf("Color(%q) = %s, want %s", name, got, c)
		}
	}
	for _, name := range engine.PolicyNames() {
		if _, ok := p.fixed[name]; !ok {
			t.Errorf("the built-in policy %s has no fixed style in DefaultPalette", name)
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

// categoricalGap is the least CIEDE2000 difference at which two colours
// count as told apart: about four times the just-noticeable difference,
// because noticeable differences grow for small marks and thin lines (Stone,
// Szafir and Setlur 2014), and markers here are 7 px and lines 1.5–2 px.
const categoricalGap = 10

// Every colour a policy can get (fixed and further) differs from every
// other under normal vision.
func TestPaletteColorsDistinct(t *testing.T) {
	all := allColors(DefaultPalette())
	normal := visions()[0]
	for i, a := range all {
		for _, b := range all[i+1:] {
			if d := difference(normal, a, b); d < categoricalGap {
				t.Errorf("%s and %s differ by ΔE00 %.1f < %d", a, b, d, categoricalGap)
			}
		}
	}
}

// The built-in policies' colours stay apart for readers with protanopia,
// deuteranopia or tritanopia (Machado et al. 2009 at full severity). In
// greyscale they cannot — every colour has a contrast of 3:1 on white and
// on #1e1e1e, which leaves them a narrow band of lightness — so there the
// second channel (TestStylesTellPoliciesApart) does the work.
func TestPolicyColoursUnderColourBlindness(t *testing.T) {
	p := DefaultPalette()
	names := slices.Sorted(maps.Keys(p.fixed))
	for _, v := range visions()[:4] {
		for i, a := range names {
			for _, b := range names[i+1:] {
				if d := difference(v, p.Color(a), p.Color(b)); d < categoricalGap {
					t.Errorf("%s: %s (%s) and %s (%s) differ by ΔE00 %.1f < %d", v.name, a, p.Color(a), b, p.Color(b), d, categoricalGap)
				}
			}
		}
	}
}

// Any policies drawn together are told apart however they are seen:
// under every simulated deficiency and in greyscale, two styles whose
// colours are closer than categoricalGap differ in marker or dash. With at
// most seven policies (as many as there are dashes) no two share a marker or
// a dash at all. Every policy keeps its one colour whatever it is drawn
// with, and the styles do not depend on the order of the names.
func TestStylesTellPoliciesApart(t *testing.T) {
	p := DefaultPalette()
	pool := append(slices.Clone(longNames), "queue-x-ewma", "mine", "Mine 2", "lq-variant", "adaptive-c0.2", "my_policy")
	rng := rand.New(rand.NewPCG(10, 10))
	for trial := range 300 {
		names := slices.Clone(pool)
		rng.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
		names = names[:2+trial%9]
		styles := p.styles(names)
		for i, st := range styles {
			if st.Color != p.Color(names[i]) {
				t.Fatalf("%q drawn %s with %v, its colour is %s", names[i], st.Color, names, p.Color(names[i]))
			}
		}
		rev := slices.Clone(names)
		slices.Reverse(rev)
		back := p.styles(rev)
		slices.Reverse(back)
		if !slices.EqualFunc(styles, back, sameStyle) {
			t.Fatalf("styles of %v depend on the order", names)
		}
		checkApart(t, names, styles)
	}
}

func sameStyle(a, b style) bool {
	return a.Color == b.Color && a.Marker == b.Marker && slices.Equal(a.Dash, b.Dash)
}

func checkApart(t *testing.T, names []string, styles []style) {
	t.Helper()
	for i := range styles {
		for j := i + 1; j < len(styles); j++ {
			a, b := styles[i], styles[j]
			sameM, sameD := a.Marker == b.Marker, slices.Equal(a.Dash, b.Dash)
			if len(names) <= len(dashes()) && (sameM || sameD) {
				t.Errorf("%v: %q and %q share a marker or a dash (%v, %v)", names, names[i], names[j], a, b)
			}
			for _, v := range visions() {
				if sameM && sameD && difference(v, a.Color, b.Color) < categoricalGap {
					t.Errorf("%v, %s: %q and %q cannot be told apart: %v, %v", names, v.name, names[i], names[j], a, b)
				}
			}
		}
	}
}

// Replicas never look like policies: greys, which are at least
// categoricalGap from every policy colour under normal vision, and a hollow
// marker no policy has (the channel that holds in greyscale and under
// colour-vision deficiency, where greys and dull policy colours meet).
func TestReplicaStylesDisjoint(t *testing.T) {
	p := DefaultPalette()
	normal := visions()[0]
	var policy []style
	for _, k := range slices.Sorted(maps.Keys(p.fixed)) {
		policy = append(policy, p.fixed[k])
	}
	for _, c := range p.further {
		policy = append(policy, style{Color: c})
	}
	policy = append(policy, p.freeSecondaries()...)
	for id := 1; id <= 12; id++ {
		r := replicaStyle(id)
		for _, st := range policy {
			if st.Marker == r.Marker {
				t.Errorf("replica %d shares its marker %s with a policy style", id, r.Marker)
			}
			if st.Color != "" && difference(normal, r.Color, st.Color) < categoricalGap {
				t.Errorf("replica %d's %s is within ΔE00 %d of policy colour %s", id, r.Color, categoricalGap, st.Color)
			}
		}
		if r.Color != replicaStyle(id+len(replicaGreys)).Color || slices.Equal(r.Dash, replicaStyle(id+len(replicaGreys)).Dash) {
			t.Errorf("replicas %d and %d share a grey but not only a grey", id, id+len(replicaGreys))
		}
		if c := contrast(r.Color, "#ffffff"); c < 3 {
			t.Errorf("replica grey %s: contrast %.2f on white", r.Color, c)
		}
		if c := contrast(r.Color, "#1e1e1e"); c < 3 {
			t.Errorf("replica grey %s: contrast %.2f on #1e1e1e", r.Color, c)
		}
	}
}

// The sequential scale of heat maps is perceptually uniform and reads
// without colour: sampled in 32 equal steps as ECharts interpolates it,
// its CAM02-UCS lightness J' rises at every step under normal vision, each
// simulated deficiency and in greyscale, and its steps in CAM02-UCS differ
// by at most half (max/min ≤ 1.5). The red-to-green scale it replaced
// fails: its lightness rises and falls.
func TestSequentialScale(t *testing.T) {
	if problems := sequentialProblems(viridisAt); len(problems) > 0 {
		t.Errorf("viridis: %s", strings.Join(problems, "; "))
	}
	old := []string{"#f4b9a8", "#f8e3a1", "#b7e4c7", "#74c69d"}
	if problems := sequentialProblems(func(x float64) string { return interpolate(old, x) }); len(problems) == 0 {
		t.Error("the check passes the old red-to-green scale: it cannot fail")
	}
}

func sequentialProblems(at func(float64) string) []string {
	var problems []string
	const n = 32
	for _, v := range visions() {
		for k := 1; k <= n; k++ {
			a, b := at(float64(k-1)/n), at(float64(k)/n)
			if ja, jb := cam02ucs(v.see(linearRGB(a)))[0], cam02ucs(v.see(linearRGB(b)))[0]; jb <= ja {
				problems = append(problems, fmt.Sprintf("%s: J' falls from %.1f to %.1f at step %d", v.name, ja, jb, k))
			}
		}
	}
	lo, hi := math.Inf(1), 0.0
	for k := 1; k <= n; k++ {
		d := ucsDistance(visions()[0], at(float64(k-1)/n), at(float64(k)/n))
		lo, hi = math.Min(lo, d), math.Max(hi, d)
	}
	if hi > 1.5*lo {
		problems = append(problems, fmt.Sprintf("CAM02-UCS steps from %.2f to %.2f", lo, hi))
	}
	return problems
}

// interpolate is stops at t in [0, 1], in sRGB, as ECharts does.
func interpolate(stops []string, t float64) string {
	pos := t * float64(len(stops)-1)
	i := min(int(pos), len(stops)-2)
	a, b := rgbOf(stops[i]), rgbOf(stops[i+1])
	var out [3]int
	for k := range 3 {
		out[k] = int(math.Round(a[k] + (pos-float64(i))*(b[k]-a[k])))
	}
	return fmt.Sprintf("#%02x%02x%02x", out[0], out[1], out[2])
}

// CIEDE2000 as implemented here matches the published test data (Sharma,
// Wu and Dalal 2005, pairs 1, 7 and 17).
func TestCIEDE2000(t *testing.T) {
	for _, c := range []struct {
		a, b [3]float64
		want float64
	}{
		{[3]float64{50, 2.6772, -79.7751}, [3]float64{50, 0, -82.7485}, 2.0425},
		{[3]float64{50, 0, 0}, [3]float64{50, -1, 2}, 2.3669},
		{[3]float64{50, 2.5, 0}, [3]float64{73, 25, -18}, 27.1492},
	} {
		if got := ciede2000(c.a, c.b); math.Abs(got-c.want) > 1e-4 {
			t.Errorf("ΔE00(%v, %v) = %.4f, want %.4f", c.a, c.b, got, c.want)
		}
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
		out = append(out, p.fixed[k].Color)
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
