//go:build unix

package main

import (
	"os"
	"syscall"
)

// pollable returns a copy of f, a pipe from the kernel, that Go's network
// poller waits on. A read of the inherited blocking pipe blocks its thread
// with its scheduler slot: a goroutine the request just woke (the interrupt
// of a cell spinning in `for {}` on the other slot) then waits until the
// runtime's monitor takes the slot back, 5–10 ms. On any failure f itself
// is returned, which works, only slower to interrupt.
func pollable(f *os.File) *os.File {
	fd, err := syscall.Dup(int(f.Fd()))
	if err != nil {
		return f
	}
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return f
	}
	return os.NewFile(uintptr(fd), f.Name())
}
