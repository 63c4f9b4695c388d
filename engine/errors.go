package engine

import (
	"fmt"
	"math"
	"strings"

	"github.com/routelab/routelab/internal/spell"
)

// FieldError reports a configuration value that is not allowed: which field,
// the value given and what would be accepted.
type FieldError struct {
	Field   string
	Value   any
	Allowed string
	// Suggest is the allowed name a slip away from Value, offered as "did
	// you mean"; empty when none is near.
	Suggest string
}

func (e *FieldError) Error() string {
	msg := fmt.Sprintf("%s: %s is not allowed (want %s)", e.Field, formatValue(e.Value), e.Allowed)
	if e.Suggest != "" {
		msg += fmt.Sprintf("; did you mean %q?", e.Suggest)
	}
	return msg
}

func formatValue(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case float64:
		return fmt.Sprintf("%g", x)
	}
	return fmt.Sprint(v)
}

func fieldErr(field string, value any, allowed string) error {
	return &FieldError{Field: field, Value: value, Allowed: allowed}
}

// UnknownName refuses a name that is none of known: the error lists them
// ("one of a, b, c", then also, if any) and offers the nearest.
func UnknownName(field, name string, known []string, also string) *FieldError {
	allowed := "one of " + strings.Join(known, ", ")
	if also != "" {
		allowed += ", " + also
	}
	return &FieldError{Field: field, Value: name, Allowed: allowed, Suggest: spell.Nearest(name, known)}
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// checkPositive requires a finite x > 0.
func checkPositive(field string, x float64) error {
	if !finite(x) || x <= 0 {
		return fieldErr(field, x, "a finite number > 0")
	}
	return nil
}

// checkUpTo requires a finite x with 0 < x <= hi. The upper bounds keep
// every run finite and every value representable (a rate of 1e300 would put
// all arrivals at one instant).
func checkUpTo(field string, x, hi float64) error {
	if !finite(x) || x <= 0 || x > hi {
		return fieldErr(field, x, fmt.Sprintf("a number in (0, %g]", hi))
	}
	return nil
}

// Upper bounds of the model's inputs.
const (
	MaxRate     = 1e6 // req/s
	MaxMs       = 1e5 // a speed or a mean demand, ms
	MaxFactor   = 1e4 // slowdown
	MaxReplicas = 10000
	MaxQueueCap = 100000
	MaxTokens   = 100000
	MaxHorizon  = 1e9 // ms
)

// checkRange requires a finite x with lo <= x <= hi.
func checkRange(field string, x, lo, hi float64) error {
	if !finite(x) || x < lo || x > hi {
		return fieldErr(field, x, fmt.Sprintf("a number in [%g, %g]", lo, hi))
	}
	return nil
}
