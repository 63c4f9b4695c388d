package main

import (
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/routelab/routelab/experiment"
)

// docShellLines returns the lines of the markdown's sh code blocks, with
// comments and blank lines left out.
func docShellLines(doc string) []string {
	var out []string
	in := false
	for _, line := range strings.Split(doc, "\n") {
		switch {
		case strings.HasPrefix(line, "```sh"):
			in = true
		case strings.HasPrefix(line, "```"):
			in = false
		case in:
			if cmd, _, _ := strings.Cut(line, "#"); strings.TrimSpace(cmd) != "" {
				out = append(out, strings.TrimSpace(cmd))
			}
		}
	}
	return out
}

// shellWords splits a command line as a shell would split these: words
// between spaces, single quotes kept literal. An unclosed quote is an error.
func shellWords(line string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord, quoted := false, false
	for _, r := range line {
		switch {
		case r == '\'':
			quoted, inWord = !quoted, true
		case r == ' ' && !quoted:
			if inWord {
				words, inWord = append(words, w.String()), false
				w.Reset()
			}
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		return nil, fmt.Errorf("an unclosed quote in %q", line)
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

// loopLine matches `for i in $(seq N); do routelab …; done`.
var loopLine = regexp.MustCompile(`^for i in \$\(seq (\d+)\); do (routelab .*); done$`)

// docCommand is a routelab command of the docs, run times times with $i
// from 1 (once when it is not a loop).
type docCommand struct {
	args  []string
	times int
}

func docCommands(t *testing.T, lines []string) []docCommand {
	t.Helper()
	var out []docCommand
	for _, line := range lines {
		c := docCommand{times: 1}
		if m := loopLine.FindStringSubmatch(line); m != nil {
			c.times, _ = strconv.Atoi(m[1])
			line = m[2]
		}
		words, err := shellWords(line)
		if err != nil {
			t.Fatal(err)
		}
		if len(words) == 0 || words[0] != "routelab" {
			continue // docker, kubectl, aws: not routelab's to check
		}
		c.args = words[1:]
		out = append(out, c)
	}
	return out
}

// Every routelab command in docs/scaling.md's shell blocks names a real
// command and flags that exist, and a --shard that parses.
func TestScalingDocCommandsParse(t *testing.T) {
	lines := docShellLines(read(t, filepath.Join("..", "..", "docs", "scaling.md")))
	cmds := docCommands(t, lines)
	if len(cmds) < 6 {
		t.Fatalf("docs/scaling.md has %d routelab commands in sh blocks: %q", len(cmds), lines)
	}
	for _, c := range cmds {
		for i := 1; i <= c.times; i++ {
			args := withIndex(c.args, i)
			cmd, rest, err := newRoot(io.Discard, io.Discard).Find(args)
			if err != nil || cmd.Name() == "routelab" {
				t.Errorf("routelab %s: no such command (%v)", strings.Join(args, " "), err)
				continue
			}
			if err := cmd.ParseFlags(rest); err != nil {
				t.Errorf("routelab %s: %v", strings.Join(args, " "), err)
				continue
			}
			if spec := cmd.Flags().Lookup("shard"); spec != nil && spec.Changed {
				if _, _, err := parseShard(spec.Value.String(), func(string) (string, bool) { return "", false }); err != nil {
					t.Errorf("routelab %s: %v", strings.Join(args, " "), err)
				}
			}
		}
	}
}

func withIndex(args []string, i int) []string {
	out := make([]string, len(args))
	for k, a := range args {
		out[k] = strings.ReplaceAll(a, "$i", strconv.Itoa(i))
	}
	return out
}

// The worked example's commands, run as written on a small study of the
// same shape (30 shards a round; the example's study file and directories
// mapped to the test's), merge into the unsharded study byte for byte; and
// the example's counts are those of examples/study-100-seeds.json.
func TestScalingDocWorkedExample(t *testing.T) {
	doc := read(t, filepath.Join("..", "..", "docs", "scaling.md"))
	example := filepath.Join("..", "..", "examples", "study-100-seeds.json")
	cfg, err := experiment.ParseStudy([]byte(read(t, example)), example)
	if err != nil {
		t.Fatal(err)
	}
	dev, val := cfg.Runs()
	for _, want := range []string{
		fmt.Sprintf("%d weights × %d conditions × %d seeds = %s runs, %d per shard", len(cfg.Weights), len(cfg.Conditions()), len(cfg.DevelopmentSeeds), thousands(dev), dev/exampleShards),
		fmt.Sprintf("%d policies × %d conditions × %d seeds = %s runs, %d per shard", len(cfg.Policies), len(cfg.Conditions()), len(cfg.ValidationSeeds), thousands(val), val/exampleShards),
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("docs/scaling.md does not say %q", want)
		}
	}

	study, dir := shardStudy(t), t.TempDir()
	var cmds []docCommand
	for _, c := range docCommands(t, docShellLines(doc)) {
		if strings.Contains(strings.Join(c.args, " "), "study-100-seeds.json") || (c.args[0] == "merge" && strings.Contains(strings.Join(c.args, " "), "study-*-of-30")) {
			cmds = append(cmds, c)
		}
	}
	if len(cmds) != 3 || cmds[0].times != exampleShards || cmds[1].times != exampleShards || cmds[2].args[0] != "merge" {
		t.Fatalf("the worked example's commands are %v; want two rounds of %d and a merge", cmds, exampleShards)
	}
	local := func(a string) string {
		a = strings.ReplaceAll(a, "examples/study-100-seeds.json", study)
		a = strings.ReplaceAll(a, "shards/", dir+"/shards/")
		if a == "study.json" || a == "study.txt" {
			a = filepath.Join(dir, a)
		}
		return a
	}
	for _, c := range cmds {
		for i := 1; i <= c.times; i++ {
			args := withIndex(c.args, i)
			for k := range args {
				args[k] = local(args[k])
			}
			mustRun(t, args...)
		}
	}
	if got, want := read(t, filepath.Join(dir, "study.json")), mustRun(t, "study", study, "--json"); got != want {
		t.Errorf("the example's merged study.json differs from the unsharded study at %s", firstDifference(got, want))
	}
	if got, want := read(t, filepath.Join(dir, "study.txt")), mustRun(t, "study", study); got != want {
		t.Errorf("the example's study.txt differs from the unsharded table at %s", firstDifference(got, want))
	}
}

// thousands writes n with commas, as the docs do: 14,400.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
