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
//
// Read first: docgen.go (Generator, the one registry of parts, Files, and
// Documents, Check and Update over the Markdown pages), then one file per
// owner: model.go (model.* and serving.*: the constants, the policy and
// scenario tables), metrics.go (metrics.*), study.go (study.*: the
// exploration-weight study's figures), compare.go (compare.*: the figures
// prose quotes from the straggler comparison) and images.go (the whole
// files: the architecture figure, from go list's import graph, and the
// README's straggler figure). cmd/docgen is the go:generate command.
//
// The tests hold the docs to the code beyond the generated parts:
// docgen_test.go (TestDocsMatchCode), prose_test.go (every figure with a
// unit is generated, a constant or dated), examples_test.go (the
// statistics page's examples are their output), extending_test.go and
// extending_colour_test.go (the contributors' guide's paths, identifiers,
// colour claims and test names) and layout_test.go (the README's Layout
// table).
package docgen

//go:generate go run ./cmd/docgen -root ../..
