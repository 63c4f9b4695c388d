package main

import (
	"path/filepath"
	"runtime"
)

// The compiled program's source directory. routelab exec runs main.go
// alone, so this file is compiled only.
func init() {
	if _, file, _, ok := runtime.Caller(0); ok {
		sourceDir = filepath.Dir(file)
	}
}
