package plot

import (
	"fmt"
	"hash/fnv"
	"maps"
	"regexp"
	"sort"
	"strings"
	"unicode"
)

// Palette gives each series name one stable colour. Built-in policy names
// have fixed colours; any other name gets one of the further colours, chosen
// from a hash of the name so that it is the same in every figure. Every
// colour has a contrast ratio of at least 3:1 against both a white and a
// near-black (#1e1e1e) background, so one palette reads in light and dark
// front ends alike and in exported SVG/PNG. A Palette is immutable.
type Palette struct {
	fixed   map[string]string
	further []string
}

// AccentColor is the project's accent colour, used for the adaptive policy.
const AccentColor = "#e8590c"

// DefaultPalette returns the palette every figure uses unless told otherwise.
func DefaultPalette() *Palette {
	return &Palette{
		fixed: map[string]string{
			"round-robin":   "#3b7ddd",
			"least-queue":   "#2f9e44",
			"latency-aware": "#9061d6",
			"adaptive":      AccentColor,
			"random":        "#868e96",
			"p2c":           "#0c9a9a",
			"weighted-rr":   "#ae3ec9",
			"jiq":           "#759438",
			"sed":           "#2a6df4",
			"least-kv":      "#c15c5c",
		},
		further: []string{
			"#e64980", "#8a7a00", "#9c6644", "#cc7a00",
			"#c0392b", "#1c8fb8", "#b0478a", "#7950f2",
		},
	}
}

var hexColor = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)

// With returns a copy of p in which name always gets color ("#rrggbb"), for
// example to give a custom policy its own fixed colour.
func (p *Palette) With(name, color string) (*Palette, error) {
	if !hexColor.MatchString(color) {
		return nil, fmt.Errorf("plot: colour %q for %q is not of the form #rrggbb", color, name)
	}
	key := PolicyKey(name)
	if key == "" {
		return nil, fmt.Errorf("plot: cannot give a colour to an empty name")
	}
	fixed := maps.Clone(p.fixed)
	fixed[key] = strings.ToLower(color)
	return &Palette{fixed: fixed, further: p.further}, nil
}

// Color returns name's colour: its fixed colour when it has one, otherwise
// the further colour its hash selects.
func (p *Palette) Color(name string) string {
	key := PolicyKey(name)
	if c, ok := p.fixed[key]; ok {
		return c
	}
	return p.further[p.slot(key)]
}

func (p *Palette) slot(key string) int {
	h := fnv.New32a()
	h.Write([]byte(key))
	return int(h.Sum32() % uint32(len(p.further)))
}

// String lists the fixed colours and counts the further ones.
func (p *Palette) String() string {
	if p == nil {
		return "no palette"
	}
	names := make([]string, 0, len(p.fixed))
	for n := range p.fixed {
		names = append(names, n)
	}
	sort.Strings(names)
	for i, n := range names {
		names[i] = n + " " + p.fixed[n]
	}
	return fmt.Sprintf("palette: %s; %d further colours", strings.Join(names, ", "), len(p.further))
}

// Assign returns one colour per name for names drawn together in one figure.
// Names with a fixed colour keep it; the others keep their Color unless an
// earlier name (in sorted order, so series order does not matter) already
// took it, in which case they move to the next unused further colour. Names
// equal after PolicyKey share a colour. Once all further colours are used,
// colours repeat.
func (p *Palette) Assign(names []string) []string {
	taken := map[string]bool{}
	byKey := map[string]string{}
	var open []string
	for _, n := range names {
		key := PolicyKey(n)
		if c, ok := p.fixed[key]; ok {
			byKey[key] = c
			taken[c] = true
		} else if _, seen := byKey[key]; !seen {
			byKey[key] = ""
			open = append(open, key)
		}
	}
	sort.Strings(open)
	for _, key := range open {
		start := p.slot(key)
		c := p.further[start]
		for i := range len(p.further) {
			if cand := p.further[(start+i)%len(p.further)]; !taken[cand] {
				c = cand
				break
			}
		}
		byKey[key] = c
		taken[c] = true
	}
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = byKey[PolicyKey(n)]
	}
	return out
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
