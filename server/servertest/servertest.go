// Package servertest starts the real local service over HTTP, seeded with the
// demo organization, for other packages' end-to-end tests (as net/http/httptest
// does for handlers).
package servertest

import (
	"bytes"
	"context"
	"log/slog"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/server"
)

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
	logs := &LogBuffer{}
	srv, err := server.Open(server.Config{Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
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
func (d *Demo) Client(member string) *api.Client {
	d.t.Helper()
	k, err := keys.Store{Dir: d.KeysDir}.Load(member)
	if err != nil {
		d.t.Fatal(err)
	}
	c, err := api.NewClient(d.URL, d.Info.OrganizationID, k)
	if err != nil {
		d.t.Fatal(err)
	}
	return c
}

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
