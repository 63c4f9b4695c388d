package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/experiment"
)

// Shard files: what `compare|sweep|study --shard i/n --out FILE` writes and
// `merge` reads. A file says which experiment it is part of (the canonical
// configuration and its sha256), which build made it, which shard it is
// and, for each of its runs, the run's number and summary. It is one JSON
// object, so a file cut short does not parse.

// The format's name and version; the version changes with the layout.
const (
	shardFormat        = "routelab-shard"
	shardFormatVersion = 1
)

// shardFile is one shard's file.
type shardFile struct {
	Format        string `json:"format"`
	FormatVersion int    `json:"format_version"`
	Version       string `json:"routelab_version"`
	// Phase is a study shard's phase: development or validation.
	Phase string `json:"phase,omitempty"`
	// Selected is, for a validation shard, the weight the development
	// shards selected.
	Selected   *float64         `json:"selected_c,omitempty"`
	Shard      shardID          `json:"shard"`
	From       string           `json:"shard_from,omitempty"` // the job array that gave the shard
	ConfigHash string           `json:"config_sha256"`
	Config     experimentConfig `json:"config"`
	// Total counts the experiment's runs (the phase's, for a study).
	Total int `json:"experiment_runs"`
	// Attainment repeats, in a development shard, each run's attainment:
	// all that the study's second round reads of the first (readShardHead),
	// so a validation shard reads a few numbers per development run, not
	// their records.
	Attainment []number    `json:"development_attainment,omitempty"`
	Records    []runRecord `json:"runs"`
}

type shardID struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

func (s shardID) shard() experiment.Shard { return experiment.Shard{Index: s.Index, Count: s.Count} }

// experimentConfig is an experiment as data: everything its runs and its
// outputs depend on, and nothing else (not the workers, not the output
// flags), so every shard of an experiment describes it with the same bytes.
type experimentConfig struct {
	Command  string                  `json:"command"` // compare, sweep or study
	XLabel   string                  `json:"x_label,omitempty"`
	XName    string                  `json:"x_name,omitempty"`
	Points   []pointConfig           `json:"points,omitempty"`
	Seeds    []uint64                `json:"seeds,omitempty"`
	Protocol *engine.Protocol        `json:"protocol,omitempty"`
	Study    *experiment.StudyConfig `json:"study,omitempty"`
	Policies []policyConfig          `json:"policies"`
}

// pointConfig is a point of a sweep (the one scenario of a comparison).
type pointConfig struct {
	Label    string          `json:"label"`
	X        float64         `json:"x"`
	Scenario engine.Scenario `json:"scenario"`
	// Trace holds the replayed requests, which the scenario's JSON leaves
	// out.
	Trace []engine.TraceRecord `json:"trace,omitempty"`
}

// policyConfig names a policy; a scripted one also carries the sha256 of
// its policy file, so shards of different files never merge.
type policyConfig struct {
	Name   string `json:"name"`
	Source string `json:"source_sha256,omitempty"`
}

// sweepExperiment describes a comparison or a sweep.
func sweepExperiment(command string, sw experiment.Sweep, scripts *policySet) experimentConfig {
	c := experimentConfig{Command: command, XLabel: sw.XLabel, XName: sw.XName, Seeds: sw.Seeds, Protocol: &sw.Protocol}
	for _, pt := range sw.Points {
		c.Points = append(c.Points, pointConfig{Label: pt.Label, X: pt.X, Scenario: pt.Scenario, Trace: pt.Scenario.Trace})
	}
	c.Policies = policyConfigs(sw.Policies, scripts)
	return c
}

// studyExperiment describes a study; its policies are the validated ones.
func studyExperiment(sc experiment.StudyConfig, scripts *policySet) experimentConfig {
	c := experimentConfig{Command: "study", Study: &sc}
	for _, name := range sc.Policies {
		c.Policies = append(c.Policies, policyConfig{Name: name, Source: scripts.source(name)})
	}
	return c
}

func policyConfigs(ps []engine.PolicySpec, scripts *policySet) []policyConfig {
	out := make([]policyConfig, len(ps))
	for i, p := range ps {
		out[i] = policyConfig{Name: p.Name, Source: scripts.source(p.Name)}
	}
	return out
}

// hash is the sha256 of the configuration's canonical JSON.
func (c *experimentConfig) hash() (string, error) {
	data, err := json.Marshal(c)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

// sweep rebuilds the comparison's or sweep's experiment.Sweep, its policies
// named only: enough to assemble results, not to run them.
func (c *experimentConfig) sweep() experiment.Sweep {
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

// study rebuilds the study's configuration, its scripted policies named
// only.
func (c *experimentConfig) study() experiment.StudyConfig {
	sc := *c.Study
	sc.Scripted = nil
	for _, p := range c.Policies {
		if p.Source != "" {
			sc.Scripted = append(sc.Scripted, engine.PolicySpec{Name: p.Name})
		}
	}
	return sc
}

// runs counts the experiment's runs, or those of the study's phase.
func (c *experimentConfig) runs(phase string) int {
	if c.Study == nil {
		return len(c.Points) * len(c.Policies) * len(c.Seeds)
	}
	dev, val := c.Study.Runs()
	if phase == "validation" {
		return val
	}
	return dev
}

// runRecord is one run's number and summary, every field of
// engine.RunSummary (NaN written as null).
type runRecord struct {
	Run           int    `json:"run"`
	Policy        string `json:"policy"`
	Scenario      string `json:"scenario"`
	Seed          uint64 `json:"seed"`
	Fingerprint   string `json:"workload_fingerprint"`
	Cohort        int    `json:"cohort_arrivals"`
	Completed     int    `json:"completed"`
	Shed          int    `json:"shed"`
	Unfinished    int    `json:"unfinished"`
	OnTime        int    `json:"on_time"`
	LatencyCount  int    `json:"latency_count"`
	Mean          number `json:"mean_ms"`
	P50           number `json:"p50_ms"`
	P90           number `json:"p90_ms"`
	P95           number `json:"p95_ms"`
	P99           number `json:"p99_ms"`
	Max           number `json:"max_ms"`
	SLOMissRate   number `json:"slo_miss_rate"`
	ShedRate      number `json:"shed_rate"`
	Attainment    number `json:"attainment"`
	GoodputRPS    number `json:"goodput_rps"`
	ThroughputRPS number `json:"throughput_rps"`
	// Serving is the serving model's summary, for runs of scenarios with a
	// serving section.
	Serving *servingRecord `json:"serving,omitempty"`
}

// servingRecord is engine.ServingSummary with every field kept.
type servingRecord struct {
	TTFT         latencyRecord `json:"ttft"`
	ITL          latencyRecord `json:"itl"`
	ITLTail      latencyRecord `json:"itl_tail"`
	OnTime       int           `json:"on_time"`
	Attainment   number        `json:"attainment"`
	Preemptions  int           `json:"preemptions"`
	Preempted    int           `json:"preempted"`
	CachedTokens int64         `json:"cached_tokens"`
	PrefixTokens int64         `json:"prefix_tokens"`
	HitRate      number        `json:"hit_rate"`
	MeanBatch    number        `json:"mean_batch"`
	MeanKVUtil   number        `json:"mean_kv_util"`
}

// latencyRecord is engine.LatencyStats with NaN kept.
type latencyRecord struct {
	Count int    `json:"count"`
	Mean  number `json:"mean_ms"`
	P50   number `json:"p50_ms"`
	P90   number `json:"p90_ms"`
	P95   number `json:"p95_ms"`
	P99   number `json:"p99_ms"`
	Max   number `json:"max_ms"`
}

func latencyOf(l engine.LatencyStats) latencyRecord {
	return latencyRecord{Count: l.Count, Mean: number(l.Mean), P50: number(l.P50), P90: number(l.P90), P95: number(l.P95), P99: number(l.P99), Max: number(l.Max)}
}

func (l latencyRecord) stats() engine.LatencyStats {
	return engine.LatencyStats{Count: l.Count, Mean: float64(l.Mean), P50: float64(l.P50), P90: float64(l.P90), P95: float64(l.P95), P99: float64(l.P99), Max: float64(l.Max)}
}

func servingOf(s *engine.ServingSummary) *servingRecord {
	if s == nil {
		return nil
	}
	return &servingRecord{TTFT: latencyOf(s.TTFT), ITL: latencyOf(s.ITL), ITLTail: latencyOf(s.ITLTail),
		OnTime: s.OnTime, Attainment: number(s.Attainment), Preemptions: s.Preemptions, Preempted: s.Preempted,
		CachedTokens: s.CachedTokens, PrefixTokens: s.PrefixTokens, HitRate: number(s.HitRate),
		MeanBatch: number(s.MeanBatch), MeanKVUtil: number(s.MeanKVUtil)}
}

func (s *servingRecord) summary() *engine.ServingSummary {
	if s == nil {
		return nil
	}
	return &engine.ServingSummary{TTFT: s.TTFT.stats(), ITL: s.ITL.stats(), ITLTail: s.ITLTail.stats(),
		OnTime: s.OnTime, Attainment: float64(s.Attainment), Preemptions: s.Preemptions, Preempted: s.Preempted,
		CachedTokens: s.CachedTokens, PrefixTokens: s.PrefixTokens, HitRate: float64(s.HitRate),
		MeanBatch: float64(s.MeanBatch), MeanKVUtil: float64(s.MeanKVUtil)}
}

func recordOf(run int, r *engine.RunSummary) runRecord {
	l := r.Latency
	return runRecord{
		Run: run, Policy: r.Policy, Scenario: r.Scenario, Seed: r.Seed, Fingerprint: fmt.Sprintf("%016x", r.Fingerprint),
		Cohort: r.Cohort, Completed: r.Completed, Shed: r.Shed, Unfinished: r.Unfinished, OnTime: r.OnTime,
		LatencyCount: l.Count, Mean: number(l.Mean), P50: number(l.P50), P90: number(l.P90), P95: number(l.P95),
		P99: number(l.P99), Max: number(l.Max),
		SLOMissRate: number(r.SLOMissRate), ShedRate: number(r.ShedRate), Attainment: number(r.Attainment),
		GoodputRPS: number(r.GoodputRPS), ThroughputRPS: number(r.ThroughputRPS),
		Serving: servingOf(r.Serving),
	}
}

func (rec *runRecord) summary() (engine.RunSummary, error) {
	fp, err := strconv.ParseUint(rec.Fingerprint, 16, 64)
	if err != nil || len(rec.Fingerprint) != 16 {
		return engine.RunSummary{}, fmt.Errorf("run %d: workload_fingerprint %q is not 16 hex digits", rec.Run, rec.Fingerprint)
	}
	return engine.RunSummary{
		Policy: rec.Policy, Scenario: rec.Scenario, Seed: rec.Seed, Fingerprint: fp,
		Cohort: rec.Cohort, Completed: rec.Completed, Shed: rec.Shed, Unfinished: rec.Unfinished, OnTime: rec.OnTime,
		Latency: engine.LatencyStats{Count: rec.LatencyCount, Mean: float64(rec.Mean), P50: float64(rec.P50),
			P90: float64(rec.P90), P95: float64(rec.P95), P99: float64(rec.P99), Max: float64(rec.Max)},
		SLOMissRate: float64(rec.SLOMissRate), ShedRate: float64(rec.ShedRate), Attainment: float64(rec.Attainment),
		GoodputRPS: float64(rec.GoodputRPS), ThroughputRPS: float64(rec.ThroughputRPS),
		Serving: rec.Serving.summary(),
	}, nil
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

// fill completes a shard's file: the configuration, its hash, the number of
// runs and the shard's runs, numbered.
func (f *shardFile) fill(cfg experimentConfig, runs []engine.RunSummary) error {
	hash, err := cfg.hash()
	if err != nil {
		return err
	}
	f.Config, f.ConfigHash, f.Total = cfg, hash, cfg.runs(f.Phase)
	f.Records = make([]runRecord, len(runs))
	s := f.Shard.shard()
	for k := range runs {
		f.Records[k] = recordOf(s.Run(k), &runs[k])
		if f.Phase == "development" {
			f.Attainment = append(f.Attainment, number(runs[k].Attainment))
		}
	}
	return nil
}

// runsKey starts the runs' records in a file as encode writes it; what
// comes before is the file's head.
const runsKey = "\n  \"runs\": ["

// encode is the file's bytes: indented JSON, with the development
// attainments on one line and each run's record on one line (a third of the
// bytes of indented records, read that much faster), and a final newline.
func (f *shardFile) encode() ([]byte, error) {
	head := *f
	head.Records, head.Attainment = nil, nil
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
			_, err := json.Marshal(f.Attainment)
			return nil, fmt.Errorf("encoding the attainments: %v", err)
		}
	}
	b = append(b, ","+runsKey...)
	for i := range f.Records {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    "...)
		start := len(b)
		var ok bool
		if b, ok = f.Records[i].appendJSON(b); !ok {
			_, err := json.Marshal(&f.Records[i])
			return nil, fmt.Errorf("encoding run %d: %v", f.Records[i].Run, err)
		}
		if i == 0 { // records are alike: room for the rest at once, not by doubling
			b = slices.Grow(b, (len(b)-start+16)*(len(f.Records)-1)*9/8)
		}
	}
	return append(b, "\n  ]\n}\n"...), nil
}

// summaries are the shard's runs' summaries, in the shard's order.
func (f *shardFile) summaries() ([]engine.RunSummary, error) {
	out := make([]engine.RunSummary, len(f.Records))
	for k := range f.Records {
		var err error
		if out[k], err = f.Records[k].summary(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readShardFile decodes a shard file and checks that it is one, whole:
// the format, the configuration's hash, the shard, and the record of each
// of its runs in order. Errors say what is wrong; the caller names the
// file.
func readShardFile(data []byte) (*shardFile, error) {
	f, err := decodeShardFile(data)
	if err != nil {
		return nil, err
	}
	if err := f.check(); err != nil {
		return nil, err
	}
	return f, nil
}

// readShardHead reads a development shard's head (everything before its
// runs' records), checked as readShardFile checks it, its runs left out:
// what a study's second round needs. A file laid out otherwise than encode
// writes it is read whole.
func readShardHead(data []byte) (*shardFile, error) { return new(headReader).read(data) }

// headReader reads development shards' heads, as readShardHead. Every
// validation shard reads every development shard's head, and the heads of
// one study are alike but for their shard and attainments. Knowing the
// study's configuration as a head holds it (config, the bytes encode
// writes, and cfg, what decoding them gives), a head whose configuration
// is those bytes gets cfg without decoding them again. It reads every
// file's head into one buffer (load): nothing read keeps a reference to
// it, so reading 30 heads touches no fresh memory after the first.
type headReader struct {
	config []byte
	cfg    experimentConfig
	buf    []byte
}

// newHeadReader is a headReader that knows cfg; one that does not when
// cfg's bytes hold a "config" key (see decodeRest).
func newHeadReader(cfg experimentConfig) *headReader {
	config, err := json.MarshalIndent(&cfg, "  ", "  ") // as nested in encode's head
	if err != nil || bytes.Contains(bytes.ToLower(config), []byte(`"config"`)) {
		return new(headReader)
	}
	f, err := decodeShardFile(fmt.Appendf(nil, `{"format":%q,"format_version":%d,"config":%s}`, shardFormat, shardFormatVersion, config))
	if err != nil {
		return new(headReader)
	}
	return &headReader{config: config, cfg: f.Config}
}

// load reads the head of the file name, into r's buffer.
func (r *headReader) load(name string) ([]byte, error) {
	var err error
	r.buf, err = readFileHead(name, r.buf[:0])
	return r.buf, err
}

func (r *headReader) read(data []byte) (*shardFile, error) {
	i := bytes.Index(data, []byte(runsKey))
	if i < 0 {
		return readShardFile(data)
	}
	head := data[:i:i]
	f, err := r.decodeHead(head)
	if err != nil {
		return nil, err
	}
	if err := f.checkHead(); err != nil {
		return nil, err
	}
	if f.Phase != "development" || len(f.Attainment) != f.Shard.shard().Size(f.Total) {
		return nil, fmt.Errorf("a %s shard with %d development attainments for its %d runs", yesNo(f.Phase == "", "non-study", f.Phase), len(f.Attainment), f.Shard.shard().Size(f.Total))
	}
	return f, nil
}

// attainmentKey starts a development shard's attainments as encode writes
// them, on one line that ends the head.
const attainmentKey = ",\n  \"development_attainment\": ["

// decodeHead decodes a head (with no runs). The attainments are most of
// it: laid out as encode writes them, they are read by parseNumbers, and
// only the rest through encoding/json (see decodeRest). What that accepts,
// decoding the whole head accepts alike — the attainments' line is the
// object's last member (a raw newline is never inside a JSON string, and
// the rest must close as one object), each element a JSON number or null,
// a later key winning as it would — so anything else (an error included)
// takes the whole decode.
func (r *headReader) decodeHead(head []byte) (*shardFile, error) {
	whole := func() (*shardFile, error) {
		return decodeShardFile(append(head, runsKey+"]\n}\n"...))
	}
	j := bytes.LastIndexByte(head, '\n') - 1
	if j < 0 || !bytes.HasPrefix(head[j:], []byte(attainmentKey)) || !bytes.HasSuffix(head, []byte("],")) {
		return whole()
	}
	att, ok := parseNumbers(head[j+len(attainmentKey) : len(head)-2])
	if !ok {
		return whole()
	}
	f, err := r.decodeRest(append(head[:j:j], ","+runsKey+"]\n}\n"...))
	if err != nil {
		return whole()
	}
	f.Attainment = att
	return f, nil
}

// decodeRest decodes a head without its attainments. When r knows the
// configuration, the head's is, if it is r's bytes, cut out before
// decoding and r's decoded configuration stands for it: decoding the same
// bytes into an empty configuration gives the same, and the configuration
// is most of what is left (the study's seeds, one to a line). That needs
// the head's "config" key to be the only one encoding/json matches to it
// (case-insensitively and after unescaping; no letter of "config" has a
// non-ASCII fold, only k and s do): so a head with a backslash, or with
// "config" twice in any case, is decoded whole. r's configuration holds no
// such key (newHeadReader), so the head has it twice exactly when what is
// left once it is cut out does. What is left decodes exactly when the
// head does (the configuration is one whole JSON value, and "null" is
// another); when it does not, the head is decoded whole, for its error.
func (r *headReader) decodeRest(rest []byte) (*shardFile, error) {
	member := r.member()
	i := bytes.Index(rest, member)
	if member == nil || i < 0 || bytes.IndexByte(rest, '\\') >= 0 {
		return decodeShardFile(rest)
	}
	left := slices.Concat(rest[:i], []byte(`"config": null`), rest[i+len(member):])
	if bytes.Count(bytes.ToLower(left), []byte(`"config"`)) != 1 {
		return decodeShardFile(rest)
	}
	var raw struct {
		shardFile
		Config json.RawMessage `json:"config"`
	}
	if err := decodeStrict(left, &raw, &raw.shardFile); err != nil || string(raw.Config) != "null" {
		return decodeShardFile(rest)
	}
	f := raw.shardFile
	f.Config = r.cfg
	return &f, nil
}

// member is the configuration's member of a head as encode writes it, nil
// when r does not know the configuration.
func (r *headReader) member() []byte {
	if r.config == nil {
		return nil
	}
	return slices.Concat([]byte(`"config": `), r.config)
}

// parseNumbers reads the elements of a JSON array of numbers and nulls
// written without spaces (json.Marshal's []number), a null as NaN, as
// number.UnmarshalJSON reads each; ok is false for anything else.
func parseNumbers(list []byte) (out []number, ok bool) {
	if len(list) == 0 {
		return []number{}, true
	}
	out = make([]number, 0, bytes.Count(list, []byte(","))+1)
	for len(list) > 0 {
		elem := list
		if k := bytes.IndexByte(list, ','); k >= 0 {
			elem, list = list[:k], list[k+1:]
			if len(list) == 0 {
				return nil, false // a trailing comma
			}
		} else {
			list = nil
		}
		if string(elem) == "null" {
			out = append(out, number(math.NaN()))
			continue
		}
		if !isJSONNumber(elem) {
			return nil, false
		}
		v, err := strconv.ParseFloat(string(elem), 64)
		if err != nil {
			return nil, false
		}
		out = append(out, number(v))
	}
	return out, true
}

// isJSONNumber reports whether b is a number in JSON's grammar:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func isJSONNumber(b []byte) bool {
	digits := func() bool {
		n := 0
		for len(b) > 0 && b[0] >= '0' && b[0] <= '9' {
			b, n = b[1:], n+1
		}
		return n > 0
	}
	if len(b) > 0 && b[0] == '-' {
		b = b[1:]
	}
	switch {
	case len(b) == 0:
		return false
	case b[0] == '0':
		b = b[1:]
	case !digits():
		return false
	}
	if len(b) > 0 && b[0] == '.' {
		b = b[1:]
		if !digits() {
			return false
		}
	}
	if len(b) > 0 && (b[0] == 'e' || b[0] == 'E') {
		b = b[1:]
		if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
			b = b[1:]
		}
		if !digits() {
			return false
		}
	}
	return len(b) == 0
}

// readFileHead reads a shard file up to the start of its runs' records,
// or whole when they do not start as encode writes them: what
// readShardHead reads, without reading (and collecting) every record of
// every development shard in each validation shard. It appends to data, a
// chunk at a time.
func readFileHead(name string, data []byte) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	const chunk = 16 << 10
	for {
		if cap(data)-len(data) < chunk {
			data = slices.Grow(data, chunk)
		}
		n, err := f.Read(data[len(data):cap(data)])
		// The key may straddle two chunks: search from just before this one.
		from := max(len(data)-len(runsKey), 0)
		data = data[:len(data)+n]
		if bytes.Contains(data[from:], []byte(runsKey)) {
			return data, nil
		}
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err // a *PathError naming the file, as os.ReadFile's
		}
	}
}

// decodeShardFile decodes a shard file strictly, saying why a file that
// does not decode is not one.
func decodeShardFile(data []byte) (*shardFile, error) {
	var f shardFile
	if err := decodeStrict(data, &f, &f); err != nil {
		return nil, err
	}
	return &f, nil
}

// decodeStrict decodes data into v, which holds f, as decodeShardFile.
func decodeStrict(data []byte, v any, f *shardFile) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil || dec.More() || f.Format != shardFormat || f.FormatVersion != shardFormatVersion {
		if ferr := checkShardFormat(data); ferr != nil {
			return ferr
		}
		if err == nil {
			err = errors.New("data after the file's object")
		}
		return fmt.Errorf("not a valid %s file: %v", shardFormat, err)
	}
	return nil
}

// checkShardFormat says why a file that does not decode as a shard file is
// not one: truncated, empty, not JSON, of another tool or another format
// version.
func checkShardFormat(data []byte) error {
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
	case probe.Format != shardFormat:
		return fmt.Errorf(`not a shard file: its "format" is %s, not %q`, jsonText(probe.Format), shardFormat)
	case probe.FormatVersion != float64(shardFormatVersion):
		return fmt.Errorf(`a shard file of format_version %s; this routelab reads version %d`, jsonText(probe.FormatVersion), shardFormatVersion)
	}
	return nil
}

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
func (f *shardFile) check() error {
	if err := f.checkHead(); err != nil {
		return err
	}
	s := f.Shard.shard()
	if want := s.Size(f.Total); len(f.Records) != want {
		return fmt.Errorf("holds %d of the %d runs of shard %v (truncated, or edited?)", len(f.Records), want, s)
	}
	for k := range f.Records {
		if f.Records[k].Run != s.Run(k) {
			return fmt.Errorf("its run %d is numbered %d; shard %v's run %d is run %d", k, f.Records[k].Run, s, k, s.Run(k))
		}
	}
	return f.checkAttainment()
}

// checkHead verifies what the file's head says: a valid shard of at most
// as many shards as runs, and its configuration.
func (f *shardFile) checkHead() error {
	s := f.Shard.shard()
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
func (f *shardFile) checkAttainment() error {
	if f.Phase != "development" {
		if f.Attainment != nil {
			return fmt.Errorf("a %s shard with development attainments", yesNo(f.Phase == "", "non-study", f.Phase))
		}
		return nil
	}
	if len(f.Attainment) != len(f.Records) {
		return fmt.Errorf("%d development attainments for %d runs", len(f.Attainment), len(f.Records))
	}
	for k := range f.Records {
		if a, r := float64(f.Attainment[k]), float64(f.Records[k].Attainment); a != r && !(math.IsNaN(a) && math.IsNaN(r)) {
			return fmt.Errorf("run %d's development attainment %v is not its record's %v (edited?)", f.Records[k].Run, a, r)
		}
	}
	return nil
}

// checkConfig verifies the configuration: its hash, its command, the
// phase and selected weight a study's shards carry, and its run count.
func (f *shardFile) checkConfig() error {
	hash, err := f.Config.hash()
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
	case f.Total != f.Config.runs(f.Phase):
		return fmt.Errorf("says the experiment has %d runs; its configuration has %d", f.Total, f.Config.runs(f.Phase))
	}
	return nil
}

func yesNo(b bool, yes, no string) string {
	if b {
		return yes
	}
	return no
}
