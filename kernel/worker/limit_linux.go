package worker

import "syscall"

// LimitMemory caps this process's data segment (RLIMIT_DATA: its private
// writable memory, the Go heap and thread stacks included) at bytes, so a
// session that allocates without end dies with Go's "out of memory" at the
// cap instead of driving the machine into swap or the system's OOM killer.
// Address space reserved but not written (Go's arena reservations, a
// browser's sandbox) does not count, as it would under RLIMIT_AS, so
// Chromium started from a cell still runs. The limit is inherited by the
// processes the worker starts. Call it before the session exists.
func LimitMemory(bytes uint64) error {
	return syscall.Setrlimit(syscall.RLIMIT_DATA, &syscall.Rlimit{Cur: bytes, Max: bytes})
}

// DefaultMemoryLimit is three quarters of the machine's physical memory:
// room for any reasonable session, with some left for the rest of the
// machine when one runs away.
func DefaultMemoryLimit() uint64 {
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil {
		return 0
	}
	return uint64(si.Totalram) * uint64(si.Unit) / 4 * 3
}
