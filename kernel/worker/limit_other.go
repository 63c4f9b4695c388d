//go:build !linux

package worker

import "errors"

// LimitMemory is only implemented on Linux.
func LimitMemory(uint64) error {
	return errors.New("a worker memory limit is only supported on Linux")
}

// DefaultMemoryLimit is 0 (no limit) where LimitMemory is not supported.
func DefaultMemoryLimit() uint64 { return 0 }
