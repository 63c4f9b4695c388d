// Package prebind binds the kernel's sockets while the routelab binary is
// still initialising its packages, because a client that connects before a
// kernel listens waits 100–200 ms to try again.
//
// jupyter_client connects about 11 ms after starting a kernel process. The
// routelab binary spends 9–10 ms before main: it links the whole standard
// library (the scripting layer exposes it to cells) and initialises some
// 180 packages, so `routelab kernel` used to start listening just as the
// client connected and lost that race in a third or more of its starts
// (docs/performance.md has the measurements). Go initialises packages in
// import-path order as their dependencies become ready; this package needs
// only os, syscall and encoding/json, so its init runs about 3 ms after
// exec, a third of the way through, and `routelab kernel FILE` listens from
// then on. main hands the sockets to kernel.Serve (kernel.WithListeners).
//
// It is the one package of the project that acts at initialisation and
// keeps state between init and main: Take hands the sockets over once.
// Anything unusual (another subcommand, a connection file that cannot be
// read, ipc transport, a host name or IPv6 address, a port that is taken)
// leaves nothing bound, and the kernel binds and reports as usual.
//
// bind_linux.go binds, in init, every port of the tcp connection file the
// command line names (bind, listen, ipv4); prebind.go hands them over
// (Take).
package prebind
