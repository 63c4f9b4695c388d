// Package spell finds the name someone meant: the allowed name a slip away
// from one that is not allowed. engine's errors, the dsl's suggestions and
// the CLI use it, so every surface offers the same guess.
package spell

import (
	"slices"
	"strings"
)

// Distance is the Levenshtein distance between a and b, in runes.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Nearest is the allowed name closest to name when it is a slip away (at
// most a third of its letters, case ignored) or the one allowed name that
// begins with it (a metric without its unit: "p99" for "p99_ms"), else "":
// among two dozen policies the likely one is hard to spot, and a guess far
// off misleads. Ties go to the earlier name.
func Nearest(name string, allowed []string) string {
	if name == "" || slices.Contains(allowed, name) {
		return ""
	}
	lower := strings.ToLower(name)
	best, bestD := "", max(1, len([]rune(name))/3)+1
	var prefixed []string
	for _, n := range allowed {
		ln := strings.ToLower(n)
		if d := Distance(lower, ln); d < bestD {
			best, bestD = n, d
		}
		if len([]rune(name)) >= 3 && strings.HasPrefix(ln, lower) {
			prefixed = append(prefixed, n)
		}
	}
	if best == "" && len(prefixed) == 1 {
		return prefixed[0]
	}
	return best
}
