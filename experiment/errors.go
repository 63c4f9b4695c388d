package experiment

import (
	"fmt"
	"math"

	"github.com/routelab/routelab/engine"
)

// fieldErr is engine's error for a value that is not allowed, as the
// experiment's configurations report it too.
func fieldErr(field string, value any, allowed string) error {
	return &engine.FieldError{Field: field, Value: value, Allowed: allowed}
}

// formatValue formats a value as a FieldError names it.
func formatValue(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case float64:
		return fmt.Sprintf("%g", x)
	}
	return fmt.Sprint(v)
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// metric is a metric of engine.Metrics() by its key, which must exist.
func metric(key string) engine.Metric {
	m, err := engine.MetricByKey(key)
	if err != nil {
		panic(err)
	}
	return m
}
