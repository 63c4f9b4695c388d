package main

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// TestConformance runs Go's test programs through a fresh build of
// routelab and fails on a regression against testdata/*.tsv (the -check
// mode). It takes minutes, so it runs only when asked:
//
//	ROUTELAB_CONFORMANCE=1 go test ./internal/goconform -run TestConformance -timeout 30m -v
//
// With ROUTELAB_REQUIRE_CONFORMANCE=1 and without ROUTELAB_CONFORMANCE=1
// it fails instead of skipping, for a run that must not pass silently.
func TestConformance(t *testing.T) {
	switch {
	case os.Getenv("ROUTELAB_CONFORMANCE") == "1":
	case os.Getenv("ROUTELAB_REQUIRE_CONFORMANCE") == "1":
		t.Fatal("ROUTELAB_REQUIRE_CONFORMANCE=1: the conformance run is mandatory, set ROUTELAB_CONFORMANCE=1 (and -timeout 30m)")
	default:
		t.Skip("the conformance run takes minutes; run it with ROUTELAB_CONFORMANCE=1 go test ./internal/goconform -run TestConformance -timeout 30m")
	}
	ctx := context.Background()
	if deadline, ok := t.Deadline(); ok {
		// Stop in time to say why, rather than be killed by go test.
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline.Add(-time.Minute))
		defer cancel()
	}
	cfg := config{form: "exec", refused: routelabRefusal, suites: "all", limit: 10 * time.Second, workers: 2, check: true}
	var out, progress strings.Builder
	code, err := run(ctx, cfg, &out, &progress)
	t.Log("\n" + out.String())
	switch {
	case err != nil && ctx.Err() != nil:
		t.Fatalf("%v: the suite needs about 10 minutes, give go test -timeout 30m", err)
	case err != nil:
		t.Fatal(err)
	case code != 0:
		t.Fatal("regressions against testdata/*.tsv, listed above; a program that improved is listed but does not fail")
	}
}
