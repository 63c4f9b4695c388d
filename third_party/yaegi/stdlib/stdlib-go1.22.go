//go:build go1.22

package stdlib

//go:generate ../internal/cmd/extract/extract go/version math/rand/v2
