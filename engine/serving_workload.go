package engine

import "github.com/routelab/routelab/internal/xmath"

// servingDraws is the number of uniforms the serving stream gives every
// request, whatever the configuration uses: group, session, turn, priority,
// class. A fixed count keeps the requests of a seed the same for every
// policy, and the serving stream is separate, so the specification's four
// draws per request (and so its workload) are untouched.
const servingDraws = 5

// servingGen draws the serving attributes of a seed's requests.
type servingGen struct {
	rng        Rand
	w          *ServingWorkload
	zipf       []float64 // cumulative popularity of groups 1..G
	classes    []tokenTables
	shares     []float64 // cumulative class shares
	slots      []sessionSlot
	sessions   int32   // sessions started so far
	continueP  float64 // probability that an open session has a next turn
	attributed bool    // the attributes vary: the fingerprint includes them
	traced     map[int]int32
}

// sessionSlot is one of the open conversations.
type sessionSlot struct {
	id, group int32
	context   int32 // tokens so far: system prompt, prompts and replies
	open      bool
}

func newServingGen(s *Scenario, seed uint64) *servingGen {
	w := &s.Serving.Workload
	g := &servingGen{w: w}
	g.rng.Seed(seed, streamServing)
	if w.PrefixGroups > 0 {
		g.zipf = zipfTable(w.PrefixGroups, w.ZipfS)
	}
	sum := 0.0
	for _, c := range w.Mix {
		g.classes = append(g.classes, *prepareTokens(TokenModel{Prompt: c.Prompt, Output: c.Output}))
		sum += c.Share
		g.shares = append(g.shares, sum)
	}
	if w.Sessions > 0 {
		g.slots = make([]sessionSlot, w.Sessions)
		g.continueP = 1 - 1/w.MeanTurns
	}
	g.attributed = w.PrefixGroups > 0 || w.Sessions > 0 || w.CriticalShare > 0 || w.SheddableShare > 0
	if s.Arrivals == Replay {
		g.traced = map[int]int32{}
		for _, r := range s.Trace {
			g.attributed = g.attributed || r.PrefixGroup != 0 || r.Session != 0 || r.Priority != ""
		}
	}
	return g
}

// zipfTable is the cumulative Zipf law over 1..n with exponent s, from the
// project's exact elementary functions (a seed draws the same groups on every
// platform).
func zipfTable(n int, s float64) []float64 {
	out := make([]float64, n)
	sum := 0.0
	for g := 1; g <= n; g++ {
		sum += xmath.Exp(-xmath.Mul(s, xmath.Log(float64(g))))
		out[g-1] = sum
	}
	for i := range out {
		out[i] /= sum
	}
	out[n-1] = 1
	return out
}

// pickCum is the first index whose cumulative weight reaches u.
func pickCum(cum []float64, u float64) int {
	lo, hi := 0, len(cum)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if cum[mid] >= u {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// draw gives a generated request its serving attributes and its token
// counts, from u2 and u3 (the specification's token draws) and the serving
// stream; default are the token model's samplers.
func (g *servingGen) draw(r *request, u2, u3 float64, def *tokenTables) {
	var u [servingDraws]float64
	for i := range u {
		u[i] = g.rng.Open()
	}
	tables := def
	if len(g.classes) > 0 {
		tables = &g.classes[pickCum(g.shares, u[4])]
	}
	own, out := int32(tables.prompt.draw(u2)), int32(tables.output.draw(u3))
	if g.zipf != nil {
		r.group, r.system = g.group(r.arrival, u[0]), int32(g.w.SystemPromptTokens)
	}
	r.prompt, r.output = r.system+own, out
	if g.slots != nil {
		g.turn(r, own, u[1], u[2])
	}
	switch w := g.w; {
	case u[3] < w.CriticalShare:
		r.priority = 1
	case u[3] < w.CriticalShare+w.SheddableShare:
		r.priority = -1
	}
}

// group is the prefix group of a request arriving at ms at: in the hot
// window, the hot prefix if u < share, otherwise (and outside it) the Zipf
// law's, from u rescaled to a uniform of its own.
func (g *servingGen) group(at, u float64) int32 {
	h := &g.w.HotPrefix
	if h.Share > 0 && at >= h.FromMs && at < h.ToMs {
		if u < h.Share {
			return int32(len(g.zipf) + 1)
		}
		u = (u - h.Share) / (1 - h.Share)
	}
	return int32(pickCum(g.zipf, u) + 1)
}

// turn makes r the next turn of a session drawn from the open ones (uSlot),
// which continues with probability continueP (uTurn) if the conversation
// still fits, and otherwise gives way to a new session in r's group.
func (g *servingGen) turn(r *request, own int32, uSlot, uTurn float64) {
	sl := &g.slots[int(uSlot*float64(len(g.slots)))]
	if !sl.open || uTurn >= g.continueP || int(sl.context)+int(own) > g.w.MaxContextTokens {
		g.sessions++
		*sl = sessionSlot{id: g.sessions, group: r.group, context: r.system, open: true}
	}
	r.session, r.group = sl.id, sl.group
	if sl.group == 0 {
		r.system = 0
	}
	r.carried = sl.context - r.system
	r.prompt = sl.context + own
	sl.context = r.prompt + r.output
}

// fromTrace gives a replayed request the attributes of its trace record; a
// session's turn carries the previous turn's prompt and reply (as much of
// it as the prompt holds).
func (g *servingGen) fromTrace(r *request, rec TraceRecord) {
	for range servingDraws { // the stream advances as for generated requests
		g.rng.Open()
	}
	r.group, r.system = int32(rec.PrefixGroup), int32(rec.PrefixTokens)
	r.priority, _ = rec.Priority.rank()
	if rec.Session != 0 {
		r.session = int32(rec.Session)
		r.carried = max(0, min(g.traced[rec.Session], r.prompt)-r.system)
		g.traced[rec.Session] = r.prompt + r.output
	}
}

// fold adds r's attributes to the workload fingerprint when they vary.
func (g *servingGen) fold(hash uint64, r *request) uint64 {
	if !g.attributed {
		return hash
	}
	for _, x := range [4]uint64{uint64(r.group), uint64(r.session), uint64(r.carried), uint64(uint8(r.priority))} {
		hash = (hash ^ x) * fnvPrime
	}
	return hash
}
