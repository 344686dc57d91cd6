package api_test

import (
	"context"
	"net"
	"net/http"
	"os"
	"sync/atomic"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

func openDescriptors(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd to count descriptors:", err)
	}
	return len(fds)
}

// A client per task shares the default transport's idle pool: creating
// clients does not open a connection each that nothing can close.
func TestClientsShareTheDefaultConnectionPool(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()
	if _, err := demo.Client("alice").Whoami(ctx); err != nil {
		t.Fatal(err)
	}
	before := openDescriptors(t)
	for range 100 {
		if _, err := demo.Client("alice").Whoami(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if grown := openDescriptors(t) - before; grown > 10 {
		t.Errorf("100 clients left %d more descriptors open, want the default transport's pool shared", grown)
	}
}

// The transport given with WithHTTPClient is the one used, not a copy: its
// connections are reused across clients, and its CloseIdleConnections
// reaches them.
func TestClientsUseTheCallersTransport(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()
	var dials atomic.Int32
	var d net.Dialer
	shared := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		dials.Add(1)
		return d.DialContext(ctx, network, addr)
	}}
	hc := &http.Client{Transport: shared}
	for range 20 {
		if _, err := demo.ClientAt(demo.URL, "alice", api.WithHTTPClient(hc)).Whoami(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if n := dials.Load(); n != 1 {
		t.Errorf("20 clients on one transport dialed %d times, want once (its idle connection reused)", n)
	}
	c := demo.ClientAt(demo.URL, "alice", api.WithHTTPClient(hc))
	hc.CloseIdleConnections()
	if _, err := c.Whoami(ctx); err != nil {
		t.Fatal(err)
	}
	if n := dials.Load(); n != 2 {
		t.Errorf("after the caller's CloseIdleConnections the next request dialed %d times in all, want 2 (a new connection)", n)
	}
}
