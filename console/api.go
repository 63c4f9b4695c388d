package console

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strconv"
	"time"

	"github.com/routelab/routelab/engine"
	"github.com/routelab/routelab/plot"
)

// assets are the page, its script and its style sheet; the ECharts library
// comes from plot's embedded copy. Nothing is loaded from the network.
//
//go:embed assets
var assets embed.FS

var assetTypes = map[string]string{
	"console.js":  "text/javascript; charset=utf-8",
	"console.css": "text/css; charset=utf-8",
}

func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	page, _ := assets.ReadFile("assets/index.html") // embedded
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(page)
}

func (s *Server) asset(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if name == "echarts.js" {
		lib, err := plot.LibraryJS()
		if err != nil {
			httpError(w, http.StatusInternalServerError, err.Error())
			return
		}
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "max-age=86400")
		w.Write(lib)
		return
	}
	typ, ok := assetTypes[name]
	if !ok {
		httpError(w, http.StatusNotFound, fmt.Sprintf("no asset %q", name))
		return
	}
	data, _ := assets.ReadFile("assets/" + name) // every name in assetTypes is embedded
	w.Header().Set("Content-Type", typ)
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(data)
}

// createPage starts the simulation of a page that has just opened.
func (s *Server) createPage(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	if len(s.pages) >= s.cfg.MaxPages {
		s.mu.Unlock()
		httpError(w, http.StatusServiceUnavailable, fmt.Sprintf("%d console pages are open, the most this console runs at once: close one", s.cfg.MaxPages))
		return
	}
	if s.base.Err() != nil {
		s.mu.Unlock()
		httpError(w, http.StatusServiceUnavailable, "the console is stopping")
		return
	}
	p, err := newPage(s, newID())
	if err == nil {
		s.pages[p.id] = p
	}
	s.mu.Unlock()
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"id": p.id})
}

// withPage finds the page a request names.
func (s *Server) withPage(h func(http.ResponseWriter, *http.Request, *page)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		s.mu.Lock()
		p, ok := s.pages[id]
		s.mu.Unlock()
		if !ok {
			httpError(w, http.StatusNotFound, fmt.Sprintf("no console page %.40q here: it was closed, or the console restarted (reload the page)", id))
			return
		}
		h(w, r, p)
	}
}

// hello is what a page learns when its stream connects.
type hello struct {
	Page            string   `json:"page"`
	Policies        []policy `json:"policies"`
	PoliciesFile    string   `json:"policies_file,omitempty"`
	PoliciesProblem string   `json:"policies_problem,omitempty"`
	Scenarios       []named  `json:"scenarios"`
	MaxReplicas     int      `json:"max_replicas"`
	Protocol        string   `json:"protocol"`
}

type named struct {
	Name  string `json:"name"`
	About string `json:"about"`
}

func (s *Server) hello(p *page) hello {
	proto := engine.DefaultProtocol()
	h := hello{
		Page: p.id, Policies: s.policies.list, PoliciesProblem: s.policies.problem, MaxReplicas: MaxReplicas,
		Protocol: fmt.Sprintf("%d seeds, %g s warm-up + %g s measured, SLO %g ms", compareSeeds, proto.Warmup/1000, proto.Measure/1000, proto.SLO),
	}
	if s.policies.file != "" {
		h.PoliciesFile = filepath.Base(s.policies.file)
	}
	for _, n := range engine.ScenarioNames() {
		h.Scenarios = append(h.Scenarios, named{n, engine.ScenarioAbout(n)})
	}
	return h
}

// events streams a page's frames and messages (server-sent events). The
// query's every=MS asks for at most one frame per MS milliseconds (a page
// that prefers reduced motion asks for 1000).
func (s *Server) events(w http.ResponseWriter, r *http.Request, p *page) {
	every := 0 * time.Millisecond
	if v := r.URL.Query().Get("every"); v != "" {
		ms, err := strconv.Atoi(v)
		if err != nil || ms < 0 || ms > 10000 {
			httpError(w, http.StatusBadRequest, fmt.Sprintf("every=%.20q: want a number of milliseconds from 0 to 10000", v))
			return
		}
		every = time.Duration(ms) * time.Millisecond
	}
	st := newStream(every)
	if !p.attach(st) {
		httpError(w, http.StatusNotFound, "this console page was closed (reload the page)")
		return
	}
	defer p.detach(st)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	st.push(event("hello", mustJSON(s.hello(p))))
	st.push(event("state", mustJSON(p.state())))
	ctx, cancel := context.WithCancel(r.Context())
	defer context.AfterFunc(p.ctx, cancel)() // a freed page's streams end: the page then starts anew
	st.serve(ctx, w)
}

// downloadJSON saves the recorded session as a scenario file.
func (s *Server) downloadJSON(w http.ResponseWriter, r *http.Request, p *page) {
	rec := p.session().Recording()
	data, err := rec.MarshalIndent()
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	attachment(w, "application/json", fileName(rec, "json"), data)
}

// downloadCell saves the recorded session as a Go cell that replays it.
func (s *Server) downloadCell(w http.ResponseWriter, r *http.Request, p *page) {
	rec := p.session().Recording()
	cell, err := goCell(rec, s.policies)
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	attachment(w, "text/x-go; charset=utf-8", fileName(rec, "go"), []byte(cell))
}

// fileName names a saved session by its scenario, seed and length.
func fileName(rec engine.ScenarioFile, ext string) string {
	return fmt.Sprintf("routelab-session-seed%d-%gs.%s", rec.Session.Seed, rec.Session.Until/1000, ext)
}

func attachment(w http.ResponseWriter, typ, name string, data []byte) {
	w.Header().Set("Content-Type", typ)
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", name))
	w.Header().Set("Cache-Control", "no-store")
	w.Write(data)
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	w.Write(mustJSON(v))
}

func httpError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, map[string]string{"error": msg})
}

// mustJSON encodes the console's own messages, which hold only strings,
// numbers, bools and slices of them.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(map[string]string{"error": err.Error()})
	}
	return b
}
