// Package servertest starts the real local service over HTTP, seeded with the
// demo organization, for other packages' end-to-end tests (as net/http/httptest
// does for handlers).
package servertest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/server"
)

// schemaImage is the migrated empty database, made once: each demo service
// starts from it (server.Config.MemoryImage) instead of migrating anew, half
// a second of CPU under the race detector.
var schemaImage = sync.OnceValues(server.SchemaImage)

// Demo is a running, seeded local service. Everything is closed when the test ends.
type Demo struct {
	Info    *server.DemoInfo
	URL     string // base URL of the service API
	KeysDir string // the members' stamping keys, by member name
	// Server is the service itself, for what only its Go API does (rotating the
	// webhook key, minting demo OIDC tokens, trusting issuers).
	Server *server.Server
	// Log is everything the service logged, for tests that check what it
	// must never log.
	Log *LogBuffer
	t   testing.TB
}

// StartDemo opens an in-memory local service, serves it on a loopback HTTP
// server and seeds the demo organization.
func StartDemo(t testing.TB) *Demo {
	t.Helper()
	return StartDemoOn(t, nil)
}

// StartDemoOn is StartDemo with the service's clock now (nil: time.Now), for
// tests of a service whose clock is not this machine's. Its replies' Date
// header reads now; a client submits only with a clock within 5 minutes of it
// (api.WithClock).
func StartDemoOn(t testing.TB, now func() time.Time) *Demo {
	t.Helper()
	return StartDemoWith(t, server.Config{Now: now})
}

// StartDemoWith is StartDemo on a service opened with cfg (its Logger is
// replaced by the Demo's Log), for tests that lower a limit.
func StartDemoWith(t testing.TB, cfg server.Config) *Demo {
	t.Helper()
	logs := &LogBuffer{}
	cfg.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	if cfg.DataDir == "" && cfg.MemoryImage == nil {
		image, err := schemaImage()
		if err != nil {
			t.Fatal(err)
		}
		cfg.MemoryImage = image
	}
	srv, err := server.Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	keysDir := t.TempDir()
	info, err := server.SeedDemo(context.Background(), srv, keysDir)
	if err != nil {
		t.Fatal(err)
	}
	return &Demo{Info: info, URL: ts.URL, KeysDir: keysDir, Server: srv, Log: logs, t: t}
}

// Client returns a client of the demo organization stamped with member's key.
func (d *Demo) Client(member string) *api.Client { return d.ClientAt(d.URL, member) }

// ClientAt is Client talking to baseURL instead, such as a proxy in front of
// the service (Rewriting, Gateway).
func (d *Demo) ClientAt(baseURL, member string, opts ...api.Option) *api.Client {
	d.t.Helper()
	k, err := keys.Store{Dir: d.KeysDir}.Load(member)
	if err != nil {
		d.t.Fatal(err)
	}
	c, err := api.NewClient(baseURL, d.Info.OrganizationID, k, opts...)
	if err != nil {
		d.t.Fatal(err)
	}
	return c
}

// Rewrite returns the reply to send for a request to op (the path after
// /public/v1/, e.g. "query/list_app_proofs") with this body, given the
// service's own reply; returning reply unchanged passes it on.
type Rewrite func(op string, request, reply []byte) []byte

// Serving is a Rewrite for a service that stored something other than
// what it was sent: every reply that holds stored, as JSON, holds served
// instead (say, MFA steps vigil's service refuses to store).
func Serving(t testing.TB, stored, served any) Rewrite {
	t.Helper()
	from, err := json.Marshal(stored)
	if err != nil {
		t.Fatal(err)
	}
	to, err := json.Marshal(served)
	if err != nil {
		t.Fatal(err)
	}
	return func(op string, request, reply []byte) []byte { return bytes.ReplaceAll(reply, from, to) }
}

// Rewriting starts a proxy in front of d that passes every request on, as is,
// and every reply through rewrite: a hostile or buggy service whose answers
// are real ones, moved (another activity's app proofs, another app's boot
// proof). It returns the proxy's base URL; it is closed when the test ends.
func (d *Demo) Rewriting(rewrite Rewrite) string {
	d.t.Helper()
	return d.proxy(func(resp *http.Response) error {
		op, ok := strings.CutPrefix(resp.Request.URL.Path, "/public/v1/")
		if !ok {
			return nil
		}
		reply, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		request, _ := resp.Request.Context().Value(requestBodyKey{}).([]byte)
		reply = rewrite(op, request, reply)
		resp.Body = io.NopCloser(bytes.NewReader(reply))
		resp.ContentLength = int64(len(reply))
		resp.Header.Set("Content-Length", strconv.Itoa(len(reply)))
		return nil
	})
}

// Watching starts a proxy in front of d that passes every request and reply
// on as they are, and first tells watch of each request to op (the path
// after /public/v1/) with its headers and body: what a client really sent,
// its stamp included. It returns the proxy's base URL; it is closed when
// the test ends.
func (d *Demo) Watching(watch func(op string, header http.Header, body []byte)) string {
	d.t.Helper()
	return d.proxy(func(resp *http.Response) error {
		if op, ok := strings.CutPrefix(resp.Request.URL.Path, "/public/v1/"); ok {
			body, _ := resp.Request.Context().Value(requestBodyKey{}).([]byte)
			watch(op, resp.Request.Header, body)
		}
		return nil
	})
}

// proxy starts a reverse proxy in front of d that passes each reply through
// modify (the request's body is in its context, under requestBodyKey); it
// returns the proxy's base URL and is closed when the test ends.
func (d *Demo) proxy(modify func(*http.Response) error) string {
	d.t.Helper()
	target, err := url.Parse(d.URL)
	if err != nil {
		d.t.Fatal(err)
	}
	proxy := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.Out.Header.Del("Accept-Encoding") // replies are read here, so not compressed
		},
		ModifyResponse: modify,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		proxy.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestBodyKey{}, body)))
	}))
	d.t.Cleanup(srv.Close)
	return srv.URL
}

// requestBodyKey carries a request's body to Rewriting's reply hook.
type requestBodyKey struct{}

// LogBuffer collects the service's log; safe for concurrent use.
type LogBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *LogBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String is the log so far.
func (l *LogBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Gateway is a proxy in front of the demo service, as a load balancer would
// be: it forwards every request, and while FailSubmits is set it answers each
// submit with a gateway's 503 after the service has handled it, so that a
// client cannot tell whether its submit was recorded.
type Gateway struct {
	URL         string
	FailSubmits atomic.Bool
	// FailStatus is the status a failed submit is answered with, with a
	// CDN's HTML body (a 524, a 599); 0 is the gateway's JSON 503.
	FailStatus atomic.Int32
	// FailBody, when set, is the JSON body a failed submit is answered with
	// (status FailStatus, or 503): an error the service did not send, such
	// as one that JSON readers can read two ways.
	FailBody atomic.Pointer[string]
	// SlowSubmits delays each submit's reply by this many nanoseconds after
	// the service has handled it: a reply slower than the client's timeout.
	SlowSubmits atomic.Int64
}

// Gateway starts a gateway in front of d; it is closed when the test ends.
func (d *Demo) Gateway() *Gateway {
	d.t.Helper()
	g := &Gateway{}
	g.URL = d.proxy(func(resp *http.Response) error {
		submit := strings.HasPrefix(resp.Request.URL.Path, api.SubmitPrefix)
		if d := time.Duration(g.SlowSubmits.Load()); submit && d > 0 {
			time.Sleep(d)
		}
		if g.FailSubmits.Load() && submit {
			resp.Body.Close()
			resp.StatusCode = http.StatusServiceUnavailable
			resp.Body = io.NopCloser(strings.NewReader(`{"code":14,"message":"upstream unavailable"}`))
			if body := g.FailBody.Load(); body != nil {
				if status := int(g.FailStatus.Load()); status != 0 {
					resp.StatusCode = status
				}
				resp.Header.Set("Content-Type", "application/json")
				resp.Body = io.NopCloser(strings.NewReader(*body))
			} else if status := int(g.FailStatus.Load()); status != 0 {
				resp.StatusCode = status
				resp.Header.Set("Content-Type", "text/html")
				resp.Body = io.NopCloser(strings.NewReader(fmt.Sprintf("<html>error code: %d</html>", status)))
			}
			resp.ContentLength = -1
			resp.Header.Del("Content-Length")
		}
		return nil
	})
	return g
}
