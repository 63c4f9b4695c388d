package dsl

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// DefaultMaxAlloc is the default bound on one allocation of a cell: half of
// the machine's memory (MemTotal in /proc/meminfo), or of the process's
// address-space or data limit when lower (a kernel's worker runs under
// one); 8 GiB when none is known.
func DefaultMaxAlloc() int64 {
	total := memTotal()
	for _, res := range []int{syscall.RLIMIT_AS, syscall.RLIMIT_DATA} {
		var lim syscall.Rlimit
		if err := syscall.Getrlimit(res, &lim); err == nil && lim.Cur != ^uint64(0) && (total == 0 || int64(lim.Cur) < total) {
			total = int64(lim.Cur)
		}
	}
	if total <= 0 {
		return 8 << 30
	}
	return total / 2
}

// memTotal reads MemTotal from /proc/meminfo, in bytes (0 when unknown).
func memTotal() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
