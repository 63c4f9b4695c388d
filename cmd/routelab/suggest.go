package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/routelab/routelab/engine"
)

// didYouMean is what follows the error of an unknown scenario or policy
// name when an allowed name is a slip away from it ("stedy": "steady"):
// "; did you mean ...?"; otherwise nothing. The error lists every allowed
// name already; among 24 policies the likely one is hard to spot.
func didYouMean(err error) string {
	var fe *engine.FieldError
	if !errors.As(err, &fe) {
		return ""
	}
	name, ok := fe.Value.(string)
	if !ok || name == "" {
		return ""
	}
	var names []string
	switch fe.Field {
	case "scenario":
		names = engine.ScenarioNames()
	case "policy":
		names = engine.PolicyNames()
	default:
		return ""
	}
	best, bestD := "", max(1, len(name)/3)+1 // a slip: at most a third of the name
	for _, n := range names {
		if d := editDistance(strings.ToLower(name), n); d < bestD {
			best, bestD = n, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", best)
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur := make([]int, len(rb)+1)
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(rb)]
}
