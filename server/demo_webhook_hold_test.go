package server

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/webhook"
)

// openDemoRun opens the demo's data directory dir as one run of 'vigil
// demo' does (seeding is idempotent) and returns a member's client.
func openDemoRun(t *testing.T, dir string, cfg Config) (*Server, *api.Client) {
	t.Helper()
	cfg.DataDir = dir
	srv, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	keysDir := filepath.Join(dir, "keys")
	info, err := SeedDemo(ctxT(t), srv, keysDir)
	if err != nil {
		srv.Close()
		t.Fatal(err)
	}
	k, err := keys.Store{Dir: keysDir}.Load(info.Members[0].KeyName)
	if err != nil {
		srv.Close()
		t.Fatal(err)
	}
	c, err := api.NewClient(httpServer(t, srv.Handler()), info.OrganizationID, k)
	if err != nil {
		srv.Close()
		t.Fatal(err)
	}
	return srv, c
}

// newEventReceiver is an eventReceiver on a new loopback port, closed when
// the test ends.
func newEventReceiver(t *testing.T) (*httptest.Server, chan string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs, got := eventReceiver(ln)
	t.Cleanup(hs.Close)
	return hs, got
}

// eventReceiver records the event ids POSTed to it and accepts them all, as
// a program that answers anything would.
func eventReceiver(ln net.Listener) (*httptest.Server, chan string) {
	got := make(chan string, 64)
	hs := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.Header.Get(webhook.HeaderEventID)
		w.WriteHeader(http.StatusNoContent)
	}))
	hs.Listener.Close()
	hs.Listener = ln
	hs.Start()
	return hs, got
}

// A 'vigil demo' left an event pending for its listener's random port; at
// the next run that port belongs to some other program. The new run holds
// delivery until its webhook and the pending events point at its own
// listener, so the other program receives nothing, and the event reaches
// this run's listener.
func TestDemoRestartSendsNothingToThePreviousRunsPort(t *testing.T) {
	dir := t.TempDir()
	ctx := ctxT(t)

	// The previous run stopped with the event pending; some other program
	// now listens on its listener's port.
	act, stray := demoRunStoppedWithAnEventPending(ctx, t, dir)
	live, got := newEventReceiver(t)

	// This run, as cmd_demo does it: held until pointed.
	srv, _ := openDemoRun(t, dir, Config{HoldWebhooks: true})
	defer srv.Close()
	if st, err := srv.WebhookOutbox(ctx); err != nil || st.Pending == 0 || !st.Held {
		t.Fatalf("before pointing: %+v %v; want the previous run's event pending and delivery held", st, err)
	}
	if _, err := PointDemoWebhook(ctx, srv, live.URL+"/"); err != nil {
		t.Fatal(err)
	}
	srv.StartWebhooks()
	deadline := time.After(20 * time.Second)
	for delivered := false; !delivered; {
		select {
		case id := <-got:
			delivered = strings.HasPrefix(id, act.ID+":")
		case id := <-stray:
			t.Fatalf("event %s was POSTed to the previous run's port, now another program's", id)
		case <-deadline:
			t.Fatalf("the event of %s, pending for the previous run's port, never reached this run's listener", act.ID)
		}
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	close(stray)
	for id := range stray {
		t.Errorf("event %s was POSTed to the previous run's port, now another program's", id)
	}
}

// A hold that the program never lifts is visible (WebhookOutbox.Held, a
// WARN at close) and loses nothing: the events wait for the next start.
func TestHeldWebhooksNeverStartedKeepTheirEvents(t *testing.T) {
	dir := t.TempDir()
	ctx := ctxT(t)
	var logs logBuffer
	receiver, got := newEventReceiver(t)
	srv, c := openDemoRun(t, dir, Config{HoldWebhooks: true, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if _, err := PointDemoWebhook(ctx, srv, receiver.URL+"/"); err != nil {
		srv.Close()
		t.Fatal(err)
	}
	act, err := c.CreateReadOnlySession(ctx)
	if err != nil {
		srv.Close()
		t.Fatal(err)
	}
	st, err := srv.WebhookOutbox(ctx)
	if err != nil || !st.Held || st.Pending == 0 {
		srv.Close()
		t.Fatalf("held outbox: %+v %v; want delivery held with the event pending", st, err)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	if l := logs.String(); !strings.Contains(l, "level=WARN") || !strings.Contains(l, "never started") {
		t.Errorf("closing a held service that was never started logs no warning:\n%s", l)
	}
	select {
	case id := <-got:
		t.Fatalf("event %s was sent while delivery was held", id)
	default:
	}

	// The next start, a demo run with the same listener: events for the
	// demo's listener are sent only by the run that pointed the webhook at it.
	srv, _ = openDemoRun(t, dir, Config{HoldWebhooks: true})
	defer srv.Close()
	if _, err := PointDemoWebhook(ctx, srv, receiver.URL+"/"); err != nil {
		t.Fatal(err)
	}
	srv.StartWebhooks()
	if st, err := srv.WebhookOutbox(ctx); err != nil || st.Held {
		t.Fatalf("started: %+v %v; want delivery started", st, err)
	}
	deadline := time.After(20 * time.Second)
	for {
		select {
		case id := <-got:
			if strings.HasPrefix(id, act.ID+":") {
				return
			}
		case <-deadline:
			t.Fatalf("the event of %s, held in the previous run, was never delivered", act.ID)
		}
	}
}

// A 'vigil demo' run that crashed left the demo's webhook pointing at its
// listener's random port, and an event pending for it; the port is some
// other program's now. A service that did not point the webhook at a
// listener of its own ('vigil serve') sends that program nothing, neither
// the pending event nor those of later status changes, and keeps them as
// dead, saying why.
func TestServiceSendsNothingToACrashedDemoRunsListener(t *testing.T) {
	dir := t.TempDir()
	ctx := ctxT(t)
	// The run crashes (its restore never runs) with the event pending.
	pending, stray := demoRunStoppedWithAnEventPending(ctx, t, dir)

	var logs logBuffer
	srv, c := openDemoRun(t, dir, Config{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	defer srv.Close()
	later, err := c.CreateReadOnlySession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for {
		st, err := srv.WebhookOutbox(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.Pending == 0 {
			break
		}
		select {
		case id := <-stray:
			t.Fatalf("event %s was POSTed to the crashed demo run's port, now another program's", id)
		case <-ctx.Done():
			t.Fatalf("events still pending: %+v\n%s", st, logs.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	select {
	case id := <-stray:
		t.Fatalf("event %s was POSTed to the crashed demo run's port, now another program's", id)
	default:
	}
	st, err := srv.WebhookOutbox(ctx)
	if err != nil || st.Dead < 2 {
		t.Errorf("outbox %+v %v: want both events kept as dead", st, err)
	}
	l := logs.String()
	if !strings.Contains(l, "events pending for an earlier 'vigil demo' run's listener are not sent") {
		t.Errorf("the start does not say that the pending event is not sent:\n%s", l)
	}
	for _, id := range []string{pending.ID, later.ID} {
		if !strings.Contains(l, "event="+id+":") || !strings.Contains(l, "webhook not sent") {
			t.Errorf("the event of %s is not logged as not sent:\n%s", id, l)
		}
	}
}

// demoRunStoppedWithAnEventPending runs a demo once, as 'vigil demo' does,
// with its webhook pointed at a listener that is gone before the event of
// the activity it returns is delivered (connection refused); the run stops
// (or crashes: its restore never runs) with the event pending. Another
// program then listens on that old port: stray receives the event id of
// every request it gets. It skips the test when the port is taken again
// before the other program can have it.
func demoRunStoppedWithAnEventPending(ctx context.Context, t *testing.T, dir string) (*api.Activity, chan string) {
	t.Helper()
	oldLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	oldAddr := oldLn.Addr().String()
	oldLn.Close()
	srv, c := openDemoRun(t, dir, Config{HoldWebhooks: true, Webhooks: WebhookOptions{
		Delivery: webhook.DelivererOptions{BaseBackoff: 5 * time.Millisecond, MaxBackoff: 10 * time.Millisecond, MaxEventAge: 20 * time.Millisecond},
		Requeue:  time.Hour}})
	if _, err := PointDemoWebhook(ctx, srv, "http://"+oldAddr+"/"); err != nil {
		srv.Close()
		t.Fatal(err)
	}
	srv.StartWebhooks()
	act, err := c.CreateReadOnlySession(ctx)
	if err != nil {
		srv.Close()
		t.Fatal(err)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	otherLn, err := net.Listen("tcp", oldAddr)
	if err != nil {
		t.Skipf("the previous run's port %s is taken again already: %v", oldAddr, err)
	}
	other, stray := eventReceiver(otherLn)
	t.Cleanup(other.Close)
	return act, stray
}
