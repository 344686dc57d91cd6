package server

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// A 'vigil demo' run points the demo organization's webhook at its listener
// and exits cleanly (restore runs, the feature is put back). Later, on
// 'vigil serve', the root quorum itself sets the demo organization's webhook
// to a URL that happens to equal that run's, where a real receiver now
// listens: the quorum-approved webhook is sent to, not kept as dead.
func TestQuorumSetWebhookEqualToAnEarlierDemoURLIsDelivered(t *testing.T) {
	dir := t.TempDir()
	ctx := ctxT(t)
	recv, got := newEventReceiver(t)
	url := recv.URL + "/"

	srv, _ := openDemoRun(t, dir, Config{HoldWebhooks: true})
	restore, err := PointDemoWebhook(ctx, srv, url)
	if err != nil {
		srv.Close()
		t.Fatal(err)
	}
	srv.StartWebhooks()
	if err := restore(ctx); err != nil { // a clean exit
		t.Fatal(err)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	for len(got) > 0 {
		<-got
	}

	// 'vigil serve' on the directory; the root quorum (alice, bob) sets the webhook.
	srv, _ = openDemoRun(t, dir, Config{})
	defer srv.Close()
	alice := setWebhookByQuorum(t, srv, dir, url)
	before, err := srv.WebhookOutbox(ctx)
	if err != nil {
		t.Fatal(err)
	}
	act, err := alice.CreateReadOnlySession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Delivered, or kept as dead: whichever the outbox shows first.
	for {
		select {
		case id := <-got:
			if strings.HasPrefix(id, act.ID+":") {
				return
			}
			continue
		case <-ctx.Done():
			t.Fatalf("the event of %s was neither delivered to %s nor kept as dead", act.ID, url)
		case <-time.After(10 * time.Millisecond):
		}
		st, err := srv.WebhookOutbox(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.Dead > before.Dead {
			t.Fatalf("the root quorum set the webhook to %s and a receiver listens there, but the event of %s was kept as dead; outbox %+v", url, act.ID, st)
		}
	}
}

// setWebhookByQuorum has the demo organization's root quorum (alice, bob)
// set its webhook to url, and returns alice's client.
func setWebhookByQuorum(t *testing.T, srv *Server, dir, url string) *api.Client {
	t.Helper()
	ctx := ctxT(t)
	info, _, err := srv.loadDemo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	client := func(name string) *api.Client {
		k, err := keys.Store{Dir: filepath.Join(dir, "keys")}.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		c, err := api.NewClient(httpServer(t, srv.Handler()), info.OrganizationID, k)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	alice, bob := client("alice"), client("bob")
	a, err := alice.SetOrganizationFeature(ctx, api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: url})
	if err != nil {
		t.Fatal(err)
	}
	if a.Status != api.StatusCompleted {
		if a, err = bob.ApproveActivity(ctx, a.Fingerprint); err != nil {
			t.Fatal(err)
		}
	}
	if a.Status != api.StatusCompleted {
		t.Fatalf("set webhook: %s", a.Status)
	}
	return alice
}

// A 'vigil demo' run crashed with an event pending for its listener's port,
// some other program's now. Before delivery starts, the root quorum points
// the webhook elsewhere: that forgets the demo's URL, and the crashed run's
// event is kept as dead then, never sent to the other program, while the
// quorum's webhook receives the later events.
func TestQuorumSetWebhookSendsNothingToACrashedDemoRunsListener(t *testing.T) {
	dir := t.TempDir()
	ctx := ctxT(t)
	// The run crashes (its restore never runs) with the event pending.
	_, stray := demoRunStoppedWithAnEventPending(ctx, t, dir)
	live, got := newEventReceiver(t)

	srv, _ := openDemoRun(t, dir, Config{HoldWebhooks: true})
	defer srv.Close()
	if st, err := srv.WebhookOutbox(ctx); err != nil || st.Pending == 0 {
		t.Fatalf("before the quorum's change: %+v %v; want the crashed run's event pending", st, err)
	}
	alice := setWebhookByQuorum(t, srv, dir, live.URL+"/")
	st, err := srv.WebhookOutbox(ctx)
	if err != nil || st.Dead == 0 {
		t.Fatalf("after the quorum's change: %+v %v; want the crashed run's event kept as dead", st, err)
	}
	srv.StartWebhooks()
	act, err := alice.CreateReadOnlySession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for delivered := false; !delivered; {
		select {
		case id := <-got:
			delivered = strings.HasPrefix(id, act.ID+":")
		case id := <-stray:
			t.Fatalf("event %s was POSTed to the crashed demo run's port, now another program's", id)
		case <-ctx.Done():
			t.Fatalf("the event of %s never reached the webhook the quorum set", act.ID)
		}
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	close(stray)
	for id := range stray {
		t.Errorf("event %s was POSTed to the crashed demo run's port, now another program's", id)
	}
}
