//go:build !unix

package main

import "os"

// pollable returns f: outside Unix the request pipe stays as inherited.
func pollable(f *os.File) *os.File { return f }
