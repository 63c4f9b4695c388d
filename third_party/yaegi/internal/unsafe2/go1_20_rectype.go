//go:build !go1.21
// +build !go1.21

package unsafe2

import "reflect"

// SetElem is not implemented before go1.21: it reports false.
func SetElem(t, key, elem reflect.Type) bool { return false }

// SetParams is not implemented before go1.21: it reports false.
func SetParams(t reflect.Type, in, out []reflect.Type) bool { return false }
