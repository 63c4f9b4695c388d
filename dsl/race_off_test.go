//go:build !race

package dsl_test

const raceDetector = false
