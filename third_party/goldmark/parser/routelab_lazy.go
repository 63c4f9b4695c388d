package parser

import (
	"regexp"
	"sync"
)

// lazyRegexp compiles expr on its first use (routelab): package
// initialisation, which every program linking goldmark pays, compiles nothing.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
