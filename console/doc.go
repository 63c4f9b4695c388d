// Package console serves routelab's live console (`routelab console`): a
// local web page on which a seeded cluster runs in dilated real time and is
// steered — policy, bursts, stragglers, failures, traffic — while every
// control is recorded, so that the page can compare policies on what was
// done and save it as a scenario file and as a Go cell that replay it.
//
// Each open page has its own simulation, a live.Session that this process
// runs; the page only renders the frames it is sent (server-sent events)
// and posts controls as JSON. A page's simulation pauses while the page is
// hidden and is freed a grace period after its event stream closes.
// Everything the page loads is embedded (assets/, and plot's ECharts).
//
// Read first: server.go (Config, Run, the routes and who may use them),
// page.go (one page's simulation and its streams), control.go (the control
// messages, the one list of actions, and their errors). Then stream.go (an
// event stream: frames skip ahead, messages never drop), setup.go (what a
// reset starts from), policies.go (the --policies file and its contract),
// compare.go (Compare Policies), cell.go (the saved Go cell), api.go (the
// remaining handlers) and assets/console.js (the page). docs/console.md is
// the user's guide; its screenshots are taken by TestConsoleScreenshots as
// it drives the page in Chromium, with ROUTELAB_SCREENSHOTS=../docs/console
// set. They show a page in real time, so no two takes are byte-identical:
// they are refreshed by hand, not by go generate, whose output CI requires
// to match the repository.
package console
