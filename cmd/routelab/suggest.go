package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/routelab/routelab/dsl"
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
		if d := dsl.EditDistance(strings.ToLower(name), n); d < bestD {
			best, bestD = n, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", best)
}
