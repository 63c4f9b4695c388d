package console

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Config configures a console.
type Config struct {
	// Addr is where to listen (host:port); "" means DefaultAddr.
	Addr string
	// Policies is a Go file of policies for the picker (see policies.go);
	// "" offers the built-ins only.
	Policies string
	// Token, when set, must be given in the URL (?token=…) or the cookie
	// the page then receives. A console listening beyond loopback makes
	// one up when it has none, as Jupyter does.
	Token string
	// Stderr receives the policies file's output and problems (nil:
	// discarded).
	Stderr io.Writer
	// Grace is how long a page's simulation outlives its event stream, so
	// a reconnect finds it (0: DefaultGrace).
	Grace time.Duration
	// MaxPages bounds the simulations running at once (0: DefaultMaxPages).
	MaxPages int
}

// Defaults of Config.
const (
	DefaultAddr     = "127.0.0.1:8080"
	DefaultGrace    = 2 * time.Second
	DefaultMaxPages = 200
)

func (c *Config) defaults() error {
	if c.Addr == "" {
		c.Addr = DefaultAddr
	}
	if c.Grace <= 0 {
		c.Grace = DefaultGrace
	}
	if c.MaxPages <= 0 {
		c.MaxPages = DefaultMaxPages
	}
	if c.Stderr == nil {
		c.Stderr = io.Discard
	}
	host, _, err := net.SplitHostPort(c.Addr)
	if err != nil {
		return fmt.Errorf("--addr %q: %v (want host:port, such as %s)", c.Addr, err, DefaultAddr)
	}
	if c.Token == "" && !isLoopback(host) {
		c.Token = newID()
	}
	return nil
}

// isLoopback tells whether a host name or address is this machine only.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// Server serves console pages, each with its own simulation.
type Server struct {
	cfg      Config
	policies *policySet
	base     context.Context // ends when the server stops
	stop     context.CancelFunc

	mu    sync.Mutex
	pages map[string]*page
}

// New makes a server and loads the policies file. A file that fails is
// reported on Stderr and on every page, and the server offers the
// built-ins: it is not an error.
func New(ctx context.Context, cfg Config) (*Server, error) {
	if err := cfg.defaults(); err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, pages: map[string]*page{}}
	s.base, s.stop = context.WithCancel(context.Background())
	s.policies = loadPolicies(ctx, cfg.Policies, cfg.Stderr)
	if s.policies.problem != "" {
		fmt.Fprintf(cfg.Stderr, "routelab console: policies: %s\n", s.policies.problem)
	}
	return s, nil
}

// Run listens on cfg.Addr and serves until ctx ends. ready receives the
// URL to open (with the token, if any) once the server listens.
func Run(ctx context.Context, cfg Config, ready func(url string)) error {
	if err := cfg.defaults(); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return fmt.Errorf("console: %s is already in use (another console?); choose another address with --addr", cfg.Addr)
		}
		return fmt.Errorf("console: %w", err)
	}
	s, err := New(ctx, cfg)
	if err != nil {
		ln.Close()
		return err
	}
	if ready != nil {
		ready(s.URL(ln.Addr()))
	}
	return s.Serve(ctx, ln)
}

// URL is the address of the console page on a listener's address.
func (s *Server) URL(addr net.Addr) string {
	_, port, _ := net.SplitHostPort(addr.String())
	host, _, _ := net.SplitHostPort(s.cfg.Addr) // the name the user gave: localhost stays localhost
	if ip := net.ParseIP(strings.Trim(host, "[]")); host == "" || (ip != nil && ip.IsUnspecified()) {
		host, _ = os.Hostname() // listening everywhere: the name others reach this machine by
	}
	u := url.URL{Scheme: "http", Host: net.JoinHostPort(host, port), Path: "/"}
	if s.cfg.Token != "" {
		u.RawQuery = url.Values{"token": {s.cfg.Token}}.Encode()
	}
	return u.String()
}

// Serve serves on ln until ctx ends, then frees every page.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return s.base },
	}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		s.Close()
		return err
	case <-ctx.Done():
	}
	s.Close() // ends the event streams, so Shutdown need not wait for them
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdown); err != nil {
		return err
	}
	<-done
	return nil
}

// Close frees every page and the policies' interpreter.
func (s *Server) Close() {
	s.stop()
	s.mu.Lock()
	pages := s.pages
	s.pages = map[string]*page{}
	s.mu.Unlock()
	for _, p := range pages {
		if p.release(true) {
			p.stop()
		}
	}
	s.policies.close()
}

// Handler serves the console: the page and its assets, and the API each
// page uses (pages.go).
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.index)
	mux.HandleFunc("GET /assets/{name}", s.asset)
	mux.HandleFunc("POST /api/pages", s.createPage)
	mux.HandleFunc("GET /api/pages/{id}/events", s.withPage(s.events))
	mux.HandleFunc("POST /api/pages/{id}/control", s.withPage(s.control))
	mux.HandleFunc("POST /api/pages/{id}/compare", s.withPage(s.compare))
	mux.HandleFunc("GET /api/pages/{id}/session.json", s.withPage(s.downloadJSON))
	mux.HandleFunc("GET /api/pages/{id}/session.go", s.withPage(s.downloadCell))
	return s.guard(mux)
}

// guard admits a request only from this console's own pages: with the
// token when there is one; on loopback, only under a loopback host name
// (a web page cannot reach the console by rebinding its own name to
// 127.0.0.1); and POSTs only as JSON from the same origin (another site's
// form or fetch cannot steer a simulation).
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.Token == "" {
			if host, _, err := net.SplitHostPort(r.Host); err != nil || !isLoopback(host) {
				httpError(w, http.StatusForbidden, fmt.Sprintf("host %q: this console answers to loopback names only (127.0.0.1, localhost, [::1])", r.Host))
				return
			}
		} else if !s.tokenOK(w, r) {
			httpError(w, http.StatusForbidden, "this console needs its token: open the URL it printed (…/?token=…)")
			return
		}
		if r.Method == http.MethodPost {
			if origin := r.Header.Get("Origin"); origin != "" && origin != "http://"+r.Host {
				httpError(w, http.StatusForbidden, fmt.Sprintf("origin %q: the console takes controls from its own pages only", origin))
				return
			}
			if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				httpError(w, http.StatusUnsupportedMediaType, fmt.Sprintf("content type %q: send JSON (application/json)", ct))
				return
			}
		}
		w.Header().Set("Content-Security-Policy", contentSecurityPolicy)
		w.Header().Set("X-Content-Type-Options", "nosniff")
		next.ServeHTTP(w, r)
	})
}

// contentSecurityPolicy lets a page load nothing but what this server
// serves: the browser itself enforces that nothing comes from the network.
// Inline scripts are the comparison figures' (plot's fragments).
const contentSecurityPolicy = "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

const tokenCookie = "routelab_console_token"

// tokenOK checks the token in the URL or the cookie; a good token in the
// URL sets the cookie, so the page's own requests need not carry it.
func (s *Server) tokenOK(w http.ResponseWriter, r *http.Request) bool {
	same := func(t string) bool { return subtle.ConstantTimeCompare([]byte(t), []byte(s.cfg.Token)) == 1 }
	if t := r.URL.Query().Get("token"); t != "" && same(t) {
		http.SetCookie(w, &http.Cookie{Name: tokenCookie, Value: t, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		return true
	}
	c, err := r.Cookie(tokenCookie)
	return err == nil && same(c.Value)
}

// newID is 128 random bits in hex: page ids cannot be guessed, so one page
// cannot steer another's simulation.
func newID() string {
	var b [16]byte
	rand.Read(b[:]) // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}

// free removes a page that has had no stream for the grace period.
func (s *Server) free(p *page) {
	if !p.release(false) {
		return
	}
	s.mu.Lock()
	delete(s.pages, p.id)
	s.mu.Unlock()
	p.stop()
}
