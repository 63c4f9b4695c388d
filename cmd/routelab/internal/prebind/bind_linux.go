package prebind

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"syscall"
)

func init() {
	if len(os.Args) >= 3 && os.Args[1] == "kernel" {
		early.file, early.sockets = os.Args[2], bind(os.Args[2])
	}
}

// bind listens on every port of a tcp connection file with an IPv4
// address; nil, with nothing left bound, when it cannot.
func bind(file string) map[int]*os.File {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var ci struct {
		Transport string `json:"transport"`
		IP        string `json:"ip"`
		Shell     int    `json:"shell_port"`
		Control   int    `json:"control_port"`
		IOPub     int    `json:"iopub_port"`
		Stdin     int    `json:"stdin_port"`
		HB        int    `json:"hb_port"`
	}
	if json.Unmarshal(data, &ci) != nil || (ci.Transport != "" && ci.Transport != "tcp") {
		return nil
	}
	addr, ok := ipv4(ci.IP)
	if !ok {
		return nil
	}
	sockets := map[int]*os.File{}
	for _, port := range []int{ci.Shell, ci.Control, ci.IOPub, ci.Stdin, ci.HB} {
		f, err := listen(addr, port)
		if err != nil {
			for _, f := range sockets {
				f.Close()
			}
			return nil
		}
		sockets[port] = f
	}
	return sockets
}

// ipv4 parses a dotted-quad address (the net package, which could, is
// initialised too late to be used here).
func ipv4(s string) (addr [4]byte, ok bool) {
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return addr, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 255 || strconv.Itoa(n) != p {
			return addr, false
		}
		addr[i] = byte(n)
	}
	return addr, true
}

// listen opens a listening TCP socket as net.Listen would (address reuse,
// close on exec, non-blocking).
func listen(addr [4]byte, port int) (*os.File, error) {
	if port <= 0 || port > 65535 {
		return nil, syscall.EINVAL
	}
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC|syscall.SOCK_NONBLOCK, syscall.IPPROTO_TCP)
	if err != nil {
		return nil, err
	}
	err = syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_REUSEADDR, 1)
	if err == nil {
		err = syscall.Bind(fd, &syscall.SockaddrInet4{Port: port, Addr: addr})
	}
	if err == nil {
		err = syscall.Listen(fd, syscall.SOMAXCONN)
	}
	if err != nil {
		syscall.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), "kernel socket"), nil
}
