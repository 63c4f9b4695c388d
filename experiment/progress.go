package experiment

import (
	"fmt"
	"time"
)

// ProgressLine is the status line of work in progress: "compare: 100/400
// runs (25%), 10s elapsed, 10 runs/s, about 30s left". The pace and the
// time left, extrapolated from the pace so far, are given from the first
// second on, when the pace is more than the first run's start-up.
func ProgressLine(what string, done, total int, elapsed time.Duration) string {
	line := fmt.Sprintf("%s: %d/%d runs (%d%%)", what, done, total, 100*done/max(total, 1))
	if elapsed >= time.Second {
		left := time.Duration(float64(elapsed) * float64(total-done) / float64(max(done, 1)))
		line += fmt.Sprintf(", %s elapsed, %s runs/s, about %s left", elapsed.Round(time.Second), pace(done, elapsed), left.Round(time.Second))
	}
	return line
}

// ProgressTotals is the line that work ends with: "compare: 400 runs in
// 40s (10 runs/s)", or, when it stopped early, "compare: interrupted after
// 120 of 400 runs (12s)".
func ProgressTotals(what string, done, total int, elapsed time.Duration) string {
	if done < total {
		return fmt.Sprintf("%s: interrupted after %d of %d runs (%s)", what, done, total, elapsed.Round(10*time.Millisecond))
	}
	return fmt.Sprintf("%s: %d runs in %s (%s runs/s)", what, total, elapsed.Round(10*time.Millisecond), pace(done, elapsed))
}

// pace is runs per second with three significant digits at most.
func pace(done int, elapsed time.Duration) string {
	r := float64(done) / max(elapsed.Seconds(), 1e-9)
	switch {
	case r >= 100:
		return fmt.Sprintf("%.0f", r)
	case r >= 10:
		return fmt.Sprintf("%.1f", r)
	}
	return fmt.Sprintf("%.2f", r)
}
