package interp

import "fmt"

// mentionsTypeArg reports whether the expression n names a type argument of
// an instance of a generic function.
func mentionsTypeArg(n *node) bool {
	found := false
	n.Walk(func(c *node) bool {
		found = found || c.typeArg
		return !found
	}, nil)
	return found
}

// constText is a constant's value as Go writes it in a message: a string
// quoted, a number as is.
func constText(v interface{}) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprint(v)
}
