package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// outFile is a file a command writes, named by its flag; exts, when given,
// are the extensions of its format.
type outFile struct {
	flag, path string
	exts       []string
}

// outputs is the figure files' outputs.
func (f *figureFiles) outputs() []outFile {
	return []outFile{
		{"--html", f.html, []string{".html", ".htm"}},
		{"--svg", f.svg, []string{".svg"}},
		{"--png", f.png, []string{".png"}},
		{"--pdf", f.pdf, []string{".pdf"}},
	}
}

// checkOutputs refuses, before any run, output files a command could not
// write or should not: so that a long run does not end in a write error, and
// a failed or mistaken one clobbers nothing. A path is refused when it is a
// directory, its directory does not exist, another flag writes it too, it is
// one of inputs, or its extension is another format's.
func checkOutputs(outs []outFile, inputs ...string) error {
	seen := map[string]string{}
	for _, in := range inputs {
		if in != "" && in != "-" {
			seen[key(in)] = ""
		}
	}
	for _, o := range outs {
		if o.path == "" {
			continue
		}
		if st, err := os.Stat(o.path); err == nil && st.IsDir() {
			return fmt.Errorf("%s %s: is a directory (want a file name)", o.flag, o.path)
		}
		dir := filepath.Dir(o.path)
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return fmt.Errorf("%s %s: directory %s does not exist (want a file in an existing directory)", o.flag, o.path, dir)
		}
		if ext := strings.ToLower(filepath.Ext(o.path)); len(o.exts) > 0 && isFormatExt(ext) && !slices.Contains(o.exts, ext) {
			return fmt.Errorf("%s %s: %s is another format's extension (want a %s file)", o.flag, o.path, ext, strings.Join(o.exts, " or "))
		}
		k := key(o.path)
		if other, ok := seen[k]; ok {
			if other == "" {
				return fmt.Errorf("%s %s: the command reads this file (want another file)", o.flag, o.path)
			}
			return fmt.Errorf("%s %s: %s writes this file too (want a file for each)", o.flag, o.path, other)
		}
		seen[k] = o.flag
	}
	return nil
}

// key identifies a path's file: its absolute, cleaned name with symbolic
// links resolved as far as they exist.
func key(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	if r, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(r, filepath.Base(abs))
	}
	return abs
}

// isFormatExt says whether ext is one of the formats routelab writes or
// reads: a figure flag given a name with another of them (--svg fig.png)
// is a slip; other names are the user's choice.
func isFormatExt(ext string) bool {
	switch ext {
	case ".svg", ".png", ".pdf", ".html", ".htm", ".json", ".csv", ".tex", ".md", ".ipynb", ".go":
		return true
	}
	return false
}
