package lab

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/routelab/routelab/engine"
)

// Error is how lab reports a failure to a cell: what was being done and why.
type Error struct {
	Op  string
	Err error
}

func (e *Error) Error() string {
	msg := "no details"
	if e.Err != nil {
		msg = e.Err.Error()
	}
	if e.Op == "" {
		return msg
	}
	return e.Op + ": " + msg
}

func (e *Error) Unwrap() error { return e.Err }

// ErrorName classifies the failure for notebook display.
func (e *Error) ErrorName() string {
	var fe *engine.FieldError
	switch {
	case errors.Is(e.Err, context.Canceled), errors.Is(e.Err, context.DeadlineExceeded):
		return "Interrupted"
	case errors.As(e.Err, &fe):
		return "ValueError"
	}
	return "LabError"
}

// fail panics with an *Error; cells show it as an error, scripts exit non-zero.
func fail(op string, err error) {
	panic(&Error{Op: op, Err: err})
}

func failf(op, format string, args ...any) {
	fail(op, fmt.Errorf(format, args...))
}

// check fails op with a ValueError naming the argument, its value and what
// is allowed, unless ok: bad input is refused by the call that received it.
func check(op string, ok bool, arg string, value any, allowed string) {
	if !ok {
		fail(op, &engine.FieldError{Field: arg, Value: value, Allowed: allowed})
	}
}

// word is a value shown as is in an error (a string would be quoted).
type word string

// finite is false for NaN and ±Inf.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
