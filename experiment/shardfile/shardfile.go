package shardfile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
	"github.com/routelab/routelab/internal/record"
)

// The format's name and version; the version changes with the layout.
// Version 2 writes each run as its whole record; version 1 nested the
// serving figures under "serving".
const (
	Format        = "routelab-shard"
	FormatVersion = 2
)

// File is one shard's file.
type File struct {
	Format        string `json:"format"`
	FormatVersion int    `json:"format_version"`
	Version       string `json:"routelab_version"`
	// Phase is a study shard's phase: development or validation.
	Phase string `json:"phase,omitempty"`
	// Selected is, for a validation shard, the weight the development
	// shards selected.
	Selected   *float64 `json:"selected_c,omitempty"`
	Shard      ID       `json:"shard"`
	From       string   `json:"shard_from,omitempty"` // the job array that gave the shard
	ConfigHash string   `json:"config_sha256"`
	Config     Config   `json:"config"`
	// Total counts the experiment's runs (the phase's, for a study).
	Total int `json:"experiment_runs"`
	// Attainment repeats, in a development shard, each run's attainment:
	// all that the study's second round reads of the first (ReadHead),
	// so a validation shard reads a few numbers per development run, not
	// their records.
	Attainment []number `json:"development_attainment,omitempty"`
	Runs       []Run    `json:"runs"`
}

// ID is a file's shard.
type ID struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// Shard is the shard the file is of.
func (s ID) Shard() experiment.Shard { return experiment.Shard{Index: s.Index, Count: s.Count} }

// Config is an experiment as data: everything its runs and its
// outputs depend on, and nothing else (not the workers, not the output
// flags), so every shard of an experiment describes it with the same bytes.
type Config struct {
	Command  string                  `json:"command"` // compare, sweep or study
	XLabel   string                  `json:"x_label,omitempty"`
	XName    string                  `json:"x_name,omitempty"`
	Points   []Point                 `json:"points,omitempty"`
	Seeds    []uint64                `json:"seeds,omitempty"`
	Protocol *engine.Protocol        `json:"protocol,omitempty"`
	Study    *experiment.StudyConfig `json:"study,omitempty"`
	Policies []Policy                `json:"policies"`
}

// Point is a point of a sweep (the one scenario of a comparison).
type Point struct {
	Label    string          `json:"label"`
	X        float64         `json:"x"`
	Scenario engine.Scenario `json:"scenario"`
	// Trace holds the replayed requests, which the scenario's JSON leaves
	// out.
	Trace []engine.TraceRecord `json:"trace,omitempty"`
}

// Policy names a policy; a scripted one also carries the sha256 of
// its policy file, so shards of different files never merge.
type Policy struct {
	Name   string `json:"name"`
	Source string `json:"source_sha256,omitempty"`
}

// SweepConfig describes a comparison or a sweep; command is compare
// or sweep, and source gives a scripted policy's file's sha256 ("" for a
// built-in).
func SweepConfig(command string, sw experiment.Sweep, source func(policy string) string) Config {
	c := Config{Command: command, XLabel: sw.XLabel, XName: sw.XName, Seeds: sw.Seeds, Protocol: &sw.Protocol}
	for _, pt := range sw.Points {
		c.Points = append(c.Points, Point{Label: pt.Label, X: pt.X, Scenario: pt.Scenario, Trace: pt.Scenario.Trace})
	}
	c.Policies = policyConfigs(sw.Policies, source)
	return c
}

// StudyConfig describes a study; its policies are the validated ones.
func StudyConfig(sc experiment.StudyConfig, source func(policy string) string) Config {
	c := Config{Command: "study", Study: &sc}
	for _, name := range sc.Policies {
		c.Policies = append(c.Policies, Policy{Name: name, Source: source(name)})
	}
	return c
}

func policyConfigs(ps []engine.PolicySpec, source func(string) string) []Policy {
	out := make([]Policy, len(ps))
	for i, p := range ps {
		out[i] = Policy{Name: p.Name, Source: source(p.Name)}
	}
	return out
}

// Hash is the sha256 of the configuration's canonical JSON.
func (c *Config) Hash() (string, error) {
	data, err := json.Marshal(c)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

// Sweep rebuilds the comparison's or sweep's Sweep, its policies
// named only: enough to assemble results, not to run them.
func (c *Config) Sweep() experiment.Sweep {
	sw := experiment.Sweep{XLabel: c.XLabel, XName: c.XName, Seeds: c.Seeds}
	if c.Protocol != nil {
		sw.Protocol = *c.Protocol
	}
	for _, pt := range c.Points {
		scn := pt.Scenario
		scn.Trace = pt.Trace
		sw.Points = append(sw.Points, experiment.SweepPoint{Label: pt.Label, X: pt.X, Scenario: scn})
	}
	for _, p := range c.Policies {
		sw.Policies = append(sw.Policies, engine.PolicySpec{Name: p.Name})
	}
	return sw
}

// StudyConfig rebuilds the study's configuration, its scripted policies named
// only.
func (c *Config) StudyConfig() experiment.StudyConfig {
	sc := *c.Study
	sc.Scripted = nil
	for _, p := range c.Policies {
		if p.Source != "" {
			sc.Scripted = append(sc.Scripted, engine.PolicySpec{Name: p.Name})
		}
	}
	return sc
}

// Runs counts the experiment's runs, or those of the study's phase.
func (c *Config) Runs(phase string) int {
	if c.Study == nil {
		return len(c.Points) * len(c.Policies) * len(c.Seeds)
	}
	dev, val := c.Study.Runs()
	if phase == "validation" {
		return val
	}
	return dev
}

// Run is one of a shard's runs: its number in the experiment and its
// summary, written as one line: {"run":N, then the whole record}.
type Run struct {
	Run     int
	Summary engine.RunSummary
}

// MarshalJSON writes the run as Encode does.
func (r Run) MarshalJSON() ([]byte, error) {
	return engine.AppendRunJSON(nil, &r.Summary, engine.Field{Name: "run", Value: r.Run})
}

// UnmarshalJSON reads a run as Encode writes it, strictly (see
// engine.DecodeRunJSON), its errors naming the run when its number was
// read.
func (r *Run) UnmarshalJSON(b []byte) error {
	r.Run = -1
	if err := engine.DecodeRunJSON(b, &r.Summary, engine.Field{Name: "run", Value: &r.Run}); err != nil {
		if r.Run >= 0 {
			return fmt.Errorf("run %d: %w", r.Run, err)
		}
		return fmt.Errorf("a run: %w", err)
	}
	return nil
}

// number is a float64 written with every bit (the shortest decimal that
// reads back the same), NaN — an undefined figure — as null.
type number float64

func (n number) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(n)) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(n))
}

// UnmarshalJSON reads null as NaN and a number as itself. The decoder has
// checked that b is one JSON value, and a JSON number is a float that
// ParseFloat reads exactly.
func (n *number) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = number(math.NaN())
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("%s is not a number", b)
	}
	*n = number(f)
	return nil
}

// Fill completes a shard's file: the configuration, its hash, the number of
// runs and the shard's runs, numbered.
func (f *File) Fill(cfg Config, runs []engine.RunSummary) error {
	hash, err := cfg.Hash()
	if err != nil {
		return err
	}
	f.Config, f.ConfigHash, f.Total = cfg, hash, cfg.Runs(f.Phase)
	f.Runs = make([]Run, len(runs))
	s := f.Shard.Shard()
	for k := range runs {
		f.Runs[k] = Run{Run: s.Run(k), Summary: runs[k]}
		if f.Phase == "development" {
			f.Attainment = append(f.Attainment, number(runs[k].Attainment))
		}
	}
	return nil
}

// runsKey starts the runs' records in a file as Encode writes it; what
// comes before is the file's head.
const runsKey = "\n  \"runs\": ["

// Encode is the file's bytes: indented JSON, with the development
// attainments on one line and each run's record on one line (a third of the
// bytes of indented records, read that much faster), and a final newline.
func (f *File) Encode() ([]byte, error) {
	head := *f
	head.Runs, head.Attainment = nil, nil
	data, err := json.MarshalIndent(&head, "", "  ")
	const tail = ",\n  \"runs\": null\n}"
	if err != nil || !bytes.HasSuffix(data, []byte(tail)) {
		return nil, fmt.Errorf("encoding the shard file: %v", err)
	}
	b := data[:len(data)-len(tail)]
	if f.Attainment != nil {
		b = append(b, ",\n  \"development_attainment\": "...)
		var ok bool
		if b, ok = appendNumbers(b, f.Attainment); !ok {
			return nil, errors.New("encoding the development attainments: an infinity, which a shard file cannot hold")
		}
	}
	b = append(b, ","+runsKey...)
	for i := range f.Runs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    "...)
		start := len(b)
		if b, err = engine.AppendRunJSON(b, &f.Runs[i].Summary, engine.Field{Name: "run", Value: f.Runs[i].Run}); err != nil {
			return nil, fmt.Errorf("encoding run %d: %v", f.Runs[i].Run, err)
		}
		if i == 0 { // records are alike: room for the rest at once, not by doubling
			b = slices.Grow(b, (len(b)-start+16)*(len(f.Runs)-1)*9/8)
		}
	}
	return append(b, "\n  ]\n}\n"...), nil
}

// Read decodes a shard file and checks that it is one, whole:
// the format, the configuration's hash, the shard, and the record of each
// of its runs in order. Errors say what is wrong; the caller names the
// file.
func Read(data []byte) (*File, error) {
	f, err := decodeShardFile(data)
	if err != nil {
		return nil, err
	}
	if err := f.check(); err != nil {
		return nil, err
	}
	return f, nil
}

// appendNumbers appends a list of numbers as json.Marshal writes a
// []number; false when one is an infinity.
func appendNumbers(b []byte, list []number) ([]byte, bool) {
	b = append(b, '[')
	for i, v := range list {
		if i > 0 {
			b = append(b, ',')
		}
		var ok bool
		if b, ok = record.AppendFloat(b, float64(v)); !ok {
			return b, false
		}
	}
	return append(b, ']'), true
}

// decodeShardFile decodes a shard file strictly, saying why a file that
// does not decode is not one.
func decodeShardFile(data []byte) (*File, error) {
	var f File
	if err := decodeStrict(data, &f, &f); err != nil {
		return nil, err
	}
	return &f, nil
}

// decodeStrict decodes data into v, which holds f, as decodeShardFile.
func decodeStrict(data []byte, v any, f *File) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("data after the file's object")
	}
	if err != nil || f.Format != Format || f.FormatVersion != FormatVersion {
		if ferr := checkShardFormat(data, err); ferr != nil {
			return ferr
		}
		return fmt.Errorf("not a valid %s file of format version %d: %v", Format, FormatVersion, err)
	}
	return nil
}

// checkShardFormat says why a file that does not decode as a shard file is
// not one: truncated, empty, not JSON, of another tool or another format
// version. For another version, it names the first field this version
// refuses (of err, what decoding gave), as a version 1 file's "serving".
func checkShardFormat(data []byte, decodeErr error) error {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return errors.New("empty file, not a shard file (routelab compare|sweep|study --shard i/n --out FILE writes them)")
	}
	var probe struct {
		Format        any `json:"format"`
		FormatVersion any `json:"format_version"`
	}
	err := json.Unmarshal(trimmed, &probe)
	var syn *json.SyntaxError
	switch {
	case errors.As(err, &syn) && trimmed[0] == '{' && syn.Offset >= int64(len(trimmed)):
		return fmt.Errorf("truncated: its JSON stops after %d bytes, before the end of the file's object (copied before the shard finished?)", len(data))
	case err != nil && trimmed[0] != '{':
		return errors.New("not a shard file (not a JSON object); routelab compare|sweep|study --shard i/n --out FILE writes them")
	case err != nil:
		return fmt.Errorf("not a shard file (invalid JSON: %v)", err)
	case probe.Format != Format:
		return fmt.Errorf(`not a shard file: its "format" is %s, not %q`, jsonText(probe.Format), Format)
	case probe.FormatVersion != float64(FormatVersion):
		field := ""
		if decodeErr != nil && fieldName.MatchString(decodeErr.Error()) {
			field = " (" + strings.TrimPrefix(decodeErr.Error(), "json: ") + ")"
		}
		return fmt.Errorf(`a shard file of format version %s%s: this routelab reads version %d; re-run the shard with it`, jsonText(probe.FormatVersion), field, FormatVersion)
	}
	return nil
}

// fieldName finds a field a decoding error names.
var fieldName = regexp.MustCompile(`field "[^"]*"`)

// jsonText shows a decoded JSON value as JSON, "missing" when absent.
func jsonText(v any) string {
	if v == nil {
		return "missing"
	}
	b, _ := json.Marshal(v) // a decoded value always encodes
	return string(b)
}

// check verifies what the file says of itself: a valid shard, the hash of
// its configuration, and a record for each of its runs, numbered as the
// shard's.
func (f *File) check() error {
	if err := f.checkHead(); err != nil {
		return err
	}
	s := f.Shard.Shard()
	if want := s.Size(f.Total); len(f.Runs) != want {
		return fmt.Errorf("holds %d of the %d runs of shard %v (truncated, or edited?)", len(f.Runs), want, s)
	}
	for k := range f.Runs {
		if f.Runs[k].Run != s.Run(k) {
			return fmt.Errorf("its run %d is numbered %d; shard %v's run %d is run %d", k, f.Runs[k].Run, s, k, s.Run(k))
		}
	}
	return f.checkAttainment()
}

// checkHead verifies what the file's head says: a valid shard of at most
// as many shards as runs, and its configuration.
func (f *File) checkHead() error {
	s := f.Shard.Shard()
	if err := s.Validate(); err != nil {
		return err
	}
	if err := f.checkConfig(); err != nil {
		return err
	}
	if s.Count > f.Total {
		return fmt.Errorf("shard %v of an experiment of %d runs: no split has more shards than runs", s, f.Total)
	}
	return nil
}

// checkAttainment requires a development shard's attainments to be its
// runs' (a second round reads them in place of the records), and no other
// shard to have any.
func (f *File) checkAttainment() error {
	if f.Phase != "development" {
		if f.Attainment != nil {
			return fmt.Errorf("a %s shard with development attainments", yesNo(f.Phase == "", "non-study", f.Phase))
		}
		return nil
	}
	if len(f.Attainment) != len(f.Runs) {
		return fmt.Errorf("%d development attainments for %d runs", len(f.Attainment), len(f.Runs))
	}
	for k := range f.Runs {
		if a, r := float64(f.Attainment[k]), f.Runs[k].Summary.Attainment; a != r && !(math.IsNaN(a) && math.IsNaN(r)) {
			return fmt.Errorf("run %d's development attainment %v is not its record's %v (edited?)", f.Runs[k].Run, a, r)
		}
	}
	return nil
}

// checkConfig verifies the configuration: its hash, its command, the
// phase and selected weight a study's shards carry, and its run count.
func (f *File) checkConfig() error {
	hash, err := f.Config.Hash()
	if err != nil {
		return err
	}
	if hash != f.ConfigHash {
		return fmt.Errorf("its configuration does not match its config_sha256 (edited or damaged)")
	}
	isStudy := f.Config.Command == "study"
	switch {
	case f.Config.Command != "compare" && f.Config.Command != "sweep" && !isStudy:
		return fmt.Errorf("command %q is not allowed (want compare, sweep or study)", f.Config.Command)
	case isStudy != (f.Config.Study != nil):
		return fmt.Errorf("a %s shard %s a study configuration", f.Config.Command, yesNo(f.Config.Study != nil, "with", "without"))
	case isStudy && f.Phase != "development" && f.Phase != "validation":
		return fmt.Errorf("a study shard of phase %q (want development or validation)", f.Phase)
	case !isStudy && f.Phase != "":
		return fmt.Errorf("a %s shard with a phase (%q): only study shards have one", f.Config.Command, f.Phase)
	case (f.Phase == "validation") != (f.Selected != nil):
		return fmt.Errorf("a %s shard %s selected_c", yesNo(f.Phase == "validation", "validation", "non-validation"), yesNo(f.Selected == nil, "without", "with"))
	case f.Total != f.Config.Runs(f.Phase):
		return fmt.Errorf("says the experiment has %d runs; its configuration has %d", f.Total, f.Config.Runs(f.Phase))
	}
	return nil
}

func yesNo(b bool, yes, no string) string {
	if b {
		return yes
	}
	return no
}
