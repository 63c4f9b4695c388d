// Package fakelang is "echo", a tiny line-oriented language that implements
// the kernel's Interpreter contract in plain Go. It exists so the kernel's
// protocol layer, the notebook runner and Jupyter's conformance suite can be
// tested without the real Go session.
//
// One statement per line (blank lines and lines starting with # are skipped;
// $name is replaced by the variable's value):
//
//	print TEXT      TEXT and a newline on stdout (\n, \r, \t are escapes)
//	write TEXT      TEXT on stdout, no newline
//	eprint TEXT     TEXT and a newline on stderr
//	NAME = TEXT     store a variable
//	echo TEXT       the cell's value is TEXT
//	NAME            the cell's value is the variable (NameError when unset)
//	html TEXT       display text/html
//	md TEXT         display text/markdown
//	json TEXT       display application/json (TEXT parsed as JSON)
//	svg | png       display a small image
//	show ID TEXT    display TEXT under display id ID
//	update ID TEXT  replace the display with id ID
//	later D ID TEXT after duration D, replace display ID with TEXT from
//	                outside the cell (through the background sink)
//	headless        the cell's value is whether its sink is headless
//	clear [wait]    clear the cell's output
//	fail TEXT       fail with EchoError: TEXT
//	sleep DURATION  wait, or stop early when interrupted
//	loop            wait until interrupted
//	panic TEXT      panic (the kernel must survive it)
//	comm open ID TARGET [JSON]  open comm ID to the front end (comms.go)
//	comm msg ID JSON            send on comm ID
//	comm close ID               close comm ID
//	comm received               the cell's value is what the front end sent
//	                            on comms since the last such cell
//	{ ... }         braces group lines; they only matter to IsComplete
//
// fakelang.go holds the session and its statements; comms.go its comms
// (the session is a kernel Commer accepting the target "echo").
package fakelang
