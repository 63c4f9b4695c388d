// Package docgen writes the parts of the project's documentation that the
// code knows better than a person: the model's constants, the built-in
// policies and scenarios, the metric names, the study's figures, the
// figures prose quotes from the straggler comparison, the architecture
// figure drawn from the real import graph, and the README's comparison
// figure. Each lives between <!-- gen NAME --> markers
// (package docmark) or in a file of its own, and TestDocsMatchCode fails as
// soon as one differs from what the code gives.
//
// Other owners write their own parts the same way: the CLI reference is
// rendered by cmd/routelab's tests, the validation figures by engine's.
package docgen

//go:generate go run ./cmd/docgen -root ../..
