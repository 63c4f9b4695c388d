//go:build unix

package engine

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used, user and system, every
// thread (the collector's included).
func cpuTime() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
