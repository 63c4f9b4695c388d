package plot

import (
	"fmt"
	"hash/fnv"
	"maps"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/routelab/routelab/engine"
)

// Palette gives each policy one colour. The colours are twelve slots
// chosen (palette_test.go measures them) so that any two differ by at least
// 10 CIEDE2000 units under normal vision and under simulated protanopia,
// deuteranopia and tritanopia (Machado et al. 2009 at severity 1.0), each
// with a contrast of at least 3:1 on white and 2.5:1 on #1e1e1e. Every
// built-in policy prefers a slot (the seven classic ones have their own,
// and the serving routers theirs, chosen so the sets the docs and notebooks
// draw never meet), any other name the slot a hash of its name selects. In
// one figure no two policies share a slot: when two prefer the same one,
// the later (fixed names first, then the others in sorted order) takes the
// next free slot, so the colours depend only on which policies are drawn,
// and are the same in every figure of a comparison and whenever the same
// policies recur. More than twelve policies in one figure is an error
// naming the limit (MaxPolicies), never a repeated colour.
//
// Colour alone cannot tell policies apart in a greyscale print, so every
// policy also has a second channel: a marker and a line dash. Within one
// figure no two policies share a marker or a dash (while there are enough
// of each). Replicas are drawn in greys (replicaStyle), a channel no policy
// uses. A Palette is immutable.
type Palette struct {
	fixed   map[string]style
	prefer  map[string]int
	further []string
}

// MaxPolicies is how many policies one figure can colour apart.
const MaxPolicies = 12

// style is how a series is drawn: its colour, the marker of its points and
// the dash of its lines.
type style struct {
	Color  string
	Marker marker
	Dash   dash
}

// marker is an ECharts symbol: a built-in name or a "path://" outline.
type marker string

// The markers of the second channel, chosen to read at 6 px.
const (
	markerCircle       marker = "circle"
	markerSquare       marker = "rect"
	markerTriangle     marker = "triangle"
	markerDiamond      marker = "diamond"
	markerTriangleDown marker = "path://M0,0L10,0L5,9z"
	markerCross        marker = "path://M0,2L2,0L5,3L8,0L10,2L7,5L10,8L8,10L5,7L2,10L0,8L3,5z"
	markerPlus         marker = "path://M3.5,0H6.5V3.5H10V6.5H6.5V10H3.5V6.5H0V3.5H3.5z"
	markerPentagon     marker = "path://M5,0L10,3.8L8.1,10H1.9L0,3.8z"
)

// dash is a line's dash pattern in px (dash, gap, ...); nil is solid.
type dash []float64

// The dashes of the second channel.
var (
	dashSolid      dash = nil
	dashDashed     dash = dash{6, 3}
	dashDotted     dash = dash{1.5, 2.5}
	dashDashDot    dash = dash{7, 2.5, 1.5, 2.5}
	dashLong       dash = dash{12, 4}
	dashDashDotDot dash = dash{7, 2.5, 1.5, 2.5, 1.5, 2.5}
	dashLongDot    dash = dash{12, 3, 2, 3}
)

func markers() []marker {
	return []marker{markerCircle, markerSquare, markerTriangle, markerDiamond, markerTriangleDown, markerCross, markerPlus, markerPentagon}
}

func dashes() []dash {
	return []dash{dashSolid, dashDashed, dashDotted, dashDashDot, dashLong, dashDashDotDot, dashLongDot}
}

// lineType is the dash as ECharts' lineStyle.type.
func (d dash) lineType() any {
	if len(d) == 0 {
		return "solid"
	}
	out := make([]any, len(d))
	for i, v := range d {
		out[i] = v
	}
	return out
}

// AccentColor is the project's accent colour, used for the adaptive policy.
const AccentColor = "#e8590c"

// DefaultPalette returns the palette every figure uses unless told
// otherwise: each built-in's colour, and marker and dash where it fixes
// them, are its engine registry record's Style.
func DefaultPalette() *Palette {
	slots := policySlots()
	p := &Palette{fixed: map[string]style{}, prefer: map[string]int{}, further: slots}
	for _, b := range engine.BuiltinPolicies() {
		st, err := registryStyle(b.Style)
		switch {
		case err != nil:
			// TestRegistryStyles keeps this from happening: such a policy
			// is drawn as any other name.
		case st.Marker != "":
			p.fixed[PolicyKey(b.Name)] = style{Color: slots[b.Style.Colour-1], Marker: st.Marker, Dash: st.Dash}
		default:
			p.prefer[PolicyKey(b.Name)] = b.Style.Colour - 1
		}
	}
	return p
}

// registryStyle is the marker and dash a registry style names (none when
// it names none), or an error naming what it may name.
func registryStyle(s engine.PolicyStyle) (style, error) {
	markers := map[string]marker{"circle": markerCircle, "square": markerSquare, "triangle": markerTriangle, "diamond": markerDiamond,
		"triangle-down": markerTriangleDown, "cross": markerCross, "plus": markerPlus, "pentagon": markerPentagon}
	dashes := map[string]dash{"solid": dashSolid, "dashed": dashDashed, "dotted": dashDotted, "dash-dot": dashDashDot,
		"long": dashLong, "dash-dot-dot": dashDashDotDot, "long-dot": dashLongDot}
	if s.Colour < 1 || s.Colour > len(policySlots()) {
		return style{}, fmt.Errorf("colour %d (want 1 to %d)", s.Colour, len(policySlots()))
	}
	if s.Marker == "" && s.Dash == "" {
		return style{}, nil
	}
	m, okM := markers[s.Marker]
	d, okD := dashes[s.Dash]
	if !okM || !okD {
		return style{}, fmt.Errorf("marker %q and dash %q (want both of %s and %s, or neither)", s.Marker, s.Dash,
			strings.Join(slices.Sorted(maps.Keys(markers)), ", "), strings.Join(slices.Sorted(maps.Keys(dashes)), ", "))
	}
	return style{Marker: m, Dash: d}, nil
}

// policySlots are the twelve policy colours; the first seven belong to the
// classic policies, adaptive's being the accent.
func policySlots() []string {
	return []string{
		"#313df9", "#35a593", "#9285f8", AccentColor, "#8d484a", "#b9556b",
		"#8a6491", "#be0507", "#839862", "#118570", "#a082b7", "#6a4ca5",
	}
}

var hexColor = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^#[0-9a-fA-F]{6}$`) })

// With returns a copy of p in which name always gets color ("#rrggbb"), for
// example to give a custom policy its own fixed colour.
func (p *Palette) With(name, color string) (*Palette, error) {
	if !hexColor().MatchString(color) {
		return nil, fmt.Errorf("plot: colour %q for %q is not of the form #rrggbb", color, name)
	}
	key := PolicyKey(name)
	if key == "" {
		return nil, fmt.Errorf("plot: cannot give a colour to an empty name")
	}
	st := p.style(name)
	st.Color = strings.ToLower(color)
	fixed := maps.Clone(p.fixed)
	fixed[key] = st
	return &Palette{fixed: fixed, prefer: p.prefer, further: p.further}, nil
}

// Color returns name's preferred colour: its fixed colour when it has one,
// otherwise its slot's. Drawn with others that prefer the same slot, a
// policy may take another (see Palette).
func (p *Palette) Color(name string) string { return p.style(name).Color }

// style returns name's preferred style: a built-in's fixed one, otherwise
// the further colour and the marker and dash its name hashes to, drawn from
// the combinations no built-in policy uses.
func (p *Palette) style(name string) style {
	key := PolicyKey(name)
	if st, ok := p.fixed[key]; ok {
		return st
	}
	free := p.freeSecondaries()
	sec := free[hash(key, "secondary")%uint32(len(free))]
	return style{Color: p.further[p.slot(key)], Marker: sec.Marker, Dash: sec.Dash}
}

// slot is the slot key prefers: a built-in's own, otherwise its hash's.
func (p *Palette) slot(key string) int {
	if i, ok := p.prefer[key]; ok {
		return i
	}
	return int(hash(key, "colour") % uint32(len(p.further)))
}

// hash is FNV-1a of the key and a purpose, so a name's colour and its
// second channel are drawn independently.
func hash(key, purpose string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(purpose + "\x00" + key))
	return h.Sum32()
}

// freeSecondaries are the marker and dash combinations no fixed name takes,
// ordered so that neighbours differ in both.
func (p *Palette) freeSecondaries() []style {
	var out []style
	ms, ds := markers(), dashes()
	for shift := range ds {
		for m := range ms {
			st := style{Marker: ms[m], Dash: ds[(m+shift)%len(ds)]}
			if !p.usesSecondary(st) {
				out = append(out, st)
			}
		}
	}
	return out
}

func (p *Palette) usesSecondary(st style) bool {
	for _, f := range p.fixed {
		if f.Marker == st.Marker && slices.Equal(f.Dash, st.Dash) {
			return true
		}
	}
	return false
}

// styles returns the styles of names drawn together in one figure. Each
// keeps its preferred colour unless a name placed before it has it: then
// it takes the next slot no name placed before it has. Each keeps its preferred marker and dash too, unless a
// name placed before it (fixed names first, then the others in sorted
// order, so series order does not matter) has either already: then it takes
// the first combination whose marker and dash are both unused, or, with
// more names than markers or dashes, the first combination unused as a
// whole. Names equal after PolicyKey share a style. More than MaxPolicies
// distinct names is an error.
func (p *Palette) styles(names []string) ([]style, error) {
	keys := map[string]string{}
	var order []string
	for _, n := range names {
		k := PolicyKey(n)
		if _, seen := keys[k]; !seen {
			keys[k] = n
			order = append(order, k)
		}
	}
	sort.SliceStable(order, func(i, j int) bool {
		_, fi := p.fixed[order[i]]
		_, fj := p.fixed[order[j]]
		if fi != fj {
			return fi
		}
		return order[i] < order[j]
	})
	if len(order) > MaxPolicies {
		return nil, fmt.Errorf("plot: %d policies in one figure, but its colours tell at most %d apart (plot.MaxPolicies); draw fewer at once", len(order), MaxPolicies)
	}
	byKey := map[string]style{}
	var taken []style
	used := map[string]bool{}
	for _, k := range order {
		st := p.style(keys[k])
		if used[st.Color] {
			st.Color = p.nextSlot(k, used)
		}
		if clashes(st, taken, false) {
			st = p.nextFree(st, taken)
		}
		used[st.Color] = true
		byKey[k] = st
		taken = append(taken, st)
	}
	out := make([]style, len(names))
	for i, n := range names {
		out[i] = byKey[PolicyKey(n)]
	}
	return out, nil
}

// nextSlot is the first slot after key's preferred one whose colour is not
// used (there is one: at most MaxPolicies names are coloured).
func (p *Palette) nextSlot(key string, used map[string]bool) string {
	start := p.slot(key)
	for i := range p.further {
		if c := p.further[(start+i)%len(p.further)]; !used[c] {
			return c
		}
	}
	return p.further[start]
}

// nextFree finds st a marker and dash that no taken style has, else a
// combination no taken style has, else keeps st.
func (p *Palette) nextFree(st style, taken []style) style {
	all := append([]style{}, p.freeSecondaries()...)
	for _, f := range slices.Sorted(maps.Keys(p.fixed)) {
		all = append(all, p.fixed[f])
	}
	for _, whole := range []bool{false, true} {
		for _, c := range all {
			if !clashes(c, taken, whole) {
				return style{Color: st.Color, Marker: c.Marker, Dash: c.Dash}
			}
		}
	}
	return st
}

// clashes tells whether st shares its marker or its dash (or, when whole,
// both) with a taken style.
func clashes(st style, taken []style, whole bool) bool {
	for _, t := range taken {
		sameM, sameD := t.Marker == st.Marker, slices.Equal(t.Dash, st.Dash)
		if (whole && sameM && sameD) || (!whole && (sameM || sameD)) {
			return true
		}
	}
	return false
}

// colors is the colours of names, in order, each its own (as styles
// gives them) for up to MaxPolicies names; beyond that the first
// MaxPolicies names' colours, which ECharts then cycles through.
func (p *Palette) colors(names []string) []string {
	if len(names) > MaxPolicies {
		names = names[:MaxPolicies]
	}
	sts, err := p.styles(names)
	if err != nil { // cannot happen with at most MaxPolicies names
		sts = make([]style, len(names))
		for i, n := range names {
			sts[i] = p.style(n)
		}
	}
	out := make([]string, len(names))
	for i, st := range sts {
		out[i] = st.Color
	}
	return out
}

// String lists the fixed colours and counts the further ones.
func (p *Palette) String() string {
	if p == nil {
		return "no palette"
	}
	names := slices.Sorted(maps.Keys(p.fixed))
	for i, n := range names {
		names[i] = n + " " + p.fixed[n].Color
	}
	return fmt.Sprintf("palette: %s; %d further colours", strings.Join(names, ", "), len(p.further))
}

// replicaGreys are the replicas' colours: greys, which no policy has, each
// with a contrast of at least 3:1 on white and on #1e1e1e.
var replicaGreys = []string{"#6e6e6e", "#8e8e8e", "#7e7e7e"}

// replicaStyle is the style of replica id (1-based) in a timeline: a grey,
// a dash, and in legends a hollow circle, which no policy has, so replicas
// never look like policies, in colour or in greyscale. Greys cycle
// every three ids and dashes every seven, so neighbours differ in both and
// ids that share a grey differ in dash; styles repeat every 21 replicas.
func replicaStyle(id int) style {
	ds := dashes()
	i := max(id-1, 0)
	return style{Color: replicaGreys[i%len(replicaGreys)], Marker: "emptyCircle", Dash: ds[i%len(ds)]}
}

// PolicyKey is the spelling-insensitive form of a policy or series name under
// which the palette looks it up: lower case, words joined by '-', so
// "LeastQueue", "least_queue" and "Least Queue" are all "least-queue".
func PolicyKey(name string) string {
	var b strings.Builder
	var prev rune
	for _, r := range strings.TrimSpace(name) {
		switch {
		case r == '_' || r == ' ' || r == '-':
			if prev != '-' && b.Len() > 0 {
				b.WriteRune('-')
			}
			prev = '-'
			continue
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			b.WriteRune('-')
		}
		b.WriteRune(unicode.ToLower(r))
		prev = r
	}
	return strings.TrimSuffix(b.String(), "-")
}

// viridis is the sequential scale of heat maps (matplotlib's viridis, as
// viridisLite's viridis(9) samples it): perceptually uniform, its lightness
// rising monotonically, so it reads under colour-vision deficiencies and in
// greyscale (palette_test.go checks both).
var viridis = []string{"#440154", "#472d7b", "#3b528b", "#2c728e", "#21908c", "#27ad81", "#5dc863", "#aadc32", "#fde725"}

// viridisAt is viridis at t in [0, 1], interpolated between its samples in
// sRGB as ECharts' visual map does.
func viridisAt(t float64) string {
	t = math.Min(1, math.Max(0, t))
	pos := t * float64(len(viridis)-1)
	i := min(int(pos), len(viridis)-2)
	f := pos - float64(i)
	a, b := rgbOf(viridis[i]), rgbOf(viridis[i+1])
	var out [3]int
	for k := range 3 {
		out[k] = int(math.Round(a[k] + f*(b[k]-a[k])))
	}
	return fmt.Sprintf("#%02x%02x%02x", out[0], out[1], out[2])
}

// rgbOf decodes "#rrggbb" into 0–255 channels.
func rgbOf(hex string) [3]float64 {
	var out [3]float64
	for k := range 3 {
		v, _ := strconv.ParseUint(hex[1+2*k:3+2*k], 16, 8)
		out[k] = float64(v)
	}
	return out
}

// inkOn is the text colour that reads on background: near-black or white,
// whichever contrasts more (WCAG relative luminance).
func inkOn(background string) string {
	c := rgbOf(background)
	var y float64
	for k, w := range []float64{0.2126, 0.7152, 0.0722} {
		v := c[k] / 255
		if v <= 0.04045 {
			v /= 12.92
		} else {
			v = math.Pow((v+0.055)/1.055, 2.4)
		}
		y += w * v
	}
	if (y+0.05)/0.05 >= 1.05/(y+0.05) {
		return "#1f2328"
	}
	return "#ffffff"
}
