package cli

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/webhook"
)

// 'vigil demo --data DIR' run again after a run that stopped with an event
// pending for its listener's port, now some other program's: the other
// program receives nothing, this run's Webhooks screen receives the event.
func TestDemoRestartDeliversThePreviousRunsEventsToItsOwnListener(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	act, stray := demoRunLeftAnEventPending(ctx, t, dir)

	env, err := startDemo(ctx, dir, discardLogger(), discardLogger())
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	hooks, err := env.webhooks(ctx, discardLogger())
	if err != nil {
		t.Fatal(err)
	}
	for delivered := false; !delivered; {
		select {
		case d := <-hooks.feed.Deliveries:
			delivered = d.Verified && d.ActivityID == act.ID
		case id := <-stray:
			t.Fatalf("event %s was POSTed to the previous run's port, now another program's", id)
		case <-ctx.Done():
			t.Fatalf("the event of %s, pending for the previous run's listener, never reached this run's", act.ID)
		}
	}
	if err := env.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case id := <-stray:
		t.Errorf("event %s was POSTed to the previous run's port, now another program's", id)
	default:
	}
}

// demoRunLeftAnEventPending runs 'vigil demo --data dir' once, as a run that
// stopped before its listener got the event of the activity it returns, and
// starts another program on that listener's old port: stray receives the
// event id of every request that program gets. It skips the test when the
// port is taken again before the other program can have it.
func demoRunLeftAnEventPending(ctx context.Context, t *testing.T, dir string) (*api.Activity, <-chan string) {
	t.Helper()
	oldLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	oldAddr := oldLn.Addr().String()
	oldLn.Close()
	previous, err := startDemo(ctx, dir, discardLogger(), discardLogger())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := server.PointDemoWebhook(ctx, previous.srv, "http://"+oldAddr+"/"); err != nil {
		previous.Close()
		t.Fatal(err)
	}
	act, err := demoClient(t, previous, "alice", previous.baseURL).CreateReadOnlySession(ctx)
	if err != nil {
		previous.Close()
		t.Fatal(err)
	}
	if err := previous.Close(); err != nil {
		t.Fatal(err)
	}

	otherLn, err := net.Listen("tcp", oldAddr)
	if err != nil {
		t.Skipf("the previous run's port %s is taken again already: %v", oldAddr, err)
	}
	stray := make(chan string, 16)
	other := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		stray <- r.Header.Get(webhook.HeaderEventID)
		w.WriteHeader(http.StatusNoContent)
	}))
	other.Listener.Close()
	other.Listener = otherLn
	other.Start()
	t.Cleanup(other.Close)
	return act, stray
}
