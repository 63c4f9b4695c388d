package lab

import (
	"context"
	"errors"
	"fmt"

	"github.com/routelab/routelab/engine"
)

// Error is how lab reports a failure to a cell: what was being done and why.
type Error struct {
	Op  string
	Err error
}

func (e *Error) Error() string { return e.Op + ": " + e.Err.Error() }
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
