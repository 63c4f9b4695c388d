package main

import (
	"fmt"
	"io"
	"os"
)

// progressReporter returns a progress callback that redraws one status line
// on w when w is a terminal, and nil otherwise (pipes and logs stay clean).
func progressReporter(w io.Writer, what string) func(done, total int) {
	if !isTerminal(w) {
		return nil
	}
	return func(done, total int) {
		fmt.Fprintf(w, "\r%s: %d/%d runs", what, done, total)
		if done == total {
			fmt.Fprint(w, "\r\033[K")
		}
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
