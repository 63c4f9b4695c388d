//go:build race

package dsl_test

// raceDetector is set when the tests run with -race.
const raceDetector = true
