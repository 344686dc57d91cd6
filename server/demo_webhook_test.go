package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/webhook"
)

// The demo's webhook takes the rule every webhook URL takes (absolute http or
// https), and only a data directory seeded with the demo has one to point.
func TestPointDemoWebhookRefusesWhatItCannotPoint(t *testing.T) {
	srv, err := Open(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ctx := context.Background()
	for _, bad := range []string{"", "ftp://127.0.0.1:1/", "127.0.0.1:1", "http:///path"} {
		if _, err := PointDemoWebhook(ctx, srv, bad); err == nil || !strings.Contains(err.Error(), "http(s)") {
			t.Errorf("PointDemoWebhook(%q): %v; want the http(s) URL rule", bad, err)
		}
	}
	if _, err := PointDemoWebhook(ctx, srv, "http://127.0.0.1:1/"); err == nil || !strings.Contains(err.Error(), "no demo organization") {
		t.Errorf("PointDemoWebhook without a demo: %v", err)
	}
}

// Events left pending for the previous run's demo listener (its random port
// now closed, or another program's) go to the listener of this run.
func TestPointDemoWebhookRepointsThePreviousRunsPendingEvents(t *testing.T) {
	srv, err := Open(Config{Webhooks: WebhookOptions{
		Delivery: webhook.DelivererOptions{BaseBackoff: 5 * time.Millisecond, MaxBackoff: 10 * time.Millisecond, MaxEventAge: 50 * time.Millisecond},
		Requeue:  20 * time.Millisecond, MaxRequeue: 40 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	ctx := context.Background()
	keysDir := t.TempDir()
	info, err := SeedDemo(ctx, srv, keysDir)
	if err != nil {
		t.Fatal(err)
	}
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close() // the previous run's listener
	if _, err := PointDemoWebhook(ctx, srv, gone.URL+"/"); err != nil {
		t.Fatal(err)
	}
	k, err := keys.Store{Dir: keysDir}.Load(info.Members[0].KeyName)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := api.NewClient(hs.URL, info.OrganizationID, k)
	act, err := c.CreateReadOnlySession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := srv.WebhookOutbox(ctx); st.Pending == 0 {
		t.Fatalf("no pending event for the closed listener: %+v", st)
	}

	got := make(chan string, 16)
	live := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.Header.Get(webhook.HeaderEventID)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer live.Close()
	if _, err := PointDemoWebhook(ctx, srv, live.URL+"/"); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(20 * time.Second)
	for {
		select {
		case id := <-got:
			if strings.HasPrefix(id, act.ID+":") {
				return
			}
		case <-deadline:
			t.Fatalf("the event of %s, pending for the previous run's listener, never reached this run's", act.ID)
		}
	}
}
