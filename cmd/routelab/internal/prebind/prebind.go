package prebind

import "os"

// early is written once by init (on Linux) and read once by Take.
var early struct {
	file    string
	sockets map[int]*os.File
}

// Take returns the sockets bound during initialisation for connection
// file, by port, and forgets them; nil when none were.
func Take(file string) map[int]*os.File {
	if file != early.file {
		return nil
	}
	sockets := early.sockets
	early.sockets = nil
	return sockets
}
