package server

import (
	"context"
	"database/sql"
	"errors"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// A 'vigil demo' run crashes (its restore never runs) with the webhook
// pointed at its listener's random port. The next run stops cleanly: its
// restore must put back what was there before any demo run (here: no
// webhook), not the crashed run's port, or a later 'vigil serve' sends the
// organization's events to whatever program holds that port now.
func TestDemoRestoreAfterACrashedRunDoesNotPointAtTheCrashedRunsPort(t *testing.T) {
	dir := t.TempDir()
	ctx := ctxT(t)
	_, stray := demoRunStoppedWithAnEventPending(ctx, t, dir)

	live, got := newEventReceiver(t)
	srv2, _ := openDemoRun(t, dir, Config{HoldWebhooks: true})
	restore, err := PointDemoWebhook(ctx, srv2, live.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	srv2.StartWebhooks()
	select {
	case <-got:
	case <-time.After(20 * time.Second):
		t.Fatal("run 1's event never reached run 2's listener")
	}
	waitNoPendingWebhooks(ctx, t, srv2)
	if err := restore(ctx); err != nil {
		t.Fatal(err)
	}
	if value, had := demoWebhookFeature(ctx, t, srv2); had {
		t.Errorf("after a clean demo run the demo organization's webhook is %q, want it unset as before the first run", value)
	}
	if err := srv2.Close(); err != nil {
		t.Fatal(err)
	}

	srv3, c := openDemoRun(t, dir, Config{}) // a plain serve of the same data directory
	defer srv3.Close()
	act, err := c.CreateReadOnlySession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case id := <-stray:
		t.Fatalf("event %s (activity %s) was POSTed to the crashed run 1's listener port, now another program's", id, act.ID)
	case <-time.After(3 * time.Second):
	}
}

// The organization's own webhook URL, set before any demo run, comes back
// at the first clean exit even after runs that crashed in between.
func TestDemoRestoreAfterCrashedRunsPutsBackTheOrganizationsOwnURL(t *testing.T) {
	dir := t.TempDir()
	ctx := ctxT(t)
	const own = "https://hooks.example.com/vigil"
	srv0, _ := openDemoRun(t, dir, Config{HoldWebhooks: true})
	setDemoWebhookFeature(ctx, t, srv0, own)
	srv0.Close()

	for _, crashed := range []string{"http://127.0.0.1:1/", "http://127.0.0.1:2/"} {
		srv, _ := openDemoRun(t, dir, Config{HoldWebhooks: true})
		if _, err := PointDemoWebhook(ctx, srv, crashed); err != nil {
			t.Fatal(err)
		}
		srv.Close() // no restore: killed
	}

	srv, _ := openDemoRun(t, dir, Config{HoldWebhooks: true})
	defer srv.Close()
	restore, err := PointDemoWebhook(ctx, srv, "http://127.0.0.1:3/")
	if err != nil {
		t.Fatal(err)
	}
	if err := restore(ctx); err != nil {
		t.Fatal(err)
	}
	if got, had := demoWebhookFeature(ctx, t, srv); !had || got != own {
		t.Errorf("after the demo runs the organization's webhook is %q (set: %v), want its own %q back", got, had, own)
	}
}

// A URL the root quorum sets while a demo run has the webhook is theirs:
// the run's restore leaves it, and a later run that crashed and one that
// exits cleanly put it back rather than what was there before the quorum's.
func TestDemoRestoreKeepsAURLSetSinceTheDemoPointedTheWebhook(t *testing.T) {
	dir := t.TempDir()
	ctx := ctxT(t)
	const before, quorums = "https://hooks.example.com/old", "https://hooks.example.com/new"
	srv0, _ := openDemoRun(t, dir, Config{HoldWebhooks: true})
	setDemoWebhookFeature(ctx, t, srv0, before)
	srv0.Close()

	srv1, _ := openDemoRun(t, dir, Config{HoldWebhooks: true})
	restore1, err := PointDemoWebhook(ctx, srv1, "http://127.0.0.1:1/")
	if err != nil {
		t.Fatal(err)
	}
	setWebhookByQuorum(t, srv1, dir, quorums)
	if err := restore1(ctx); err != nil {
		t.Fatal(err)
	}
	if got, _ := demoWebhookFeature(ctx, t, srv1); got != quorums {
		t.Fatalf("after the run's restore the webhook is %q, want the quorum's %q", got, quorums)
	}
	srv1.Close()

	srv2, _ := openDemoRun(t, dir, Config{HoldWebhooks: true})
	if _, err := PointDemoWebhook(ctx, srv2, "http://127.0.0.1:2/"); err != nil {
		t.Fatal(err)
	}
	srv2.Close() // crashed
	srv3, _ := openDemoRun(t, dir, Config{HoldWebhooks: true})
	defer srv3.Close()
	restore3, err := PointDemoWebhook(ctx, srv3, "http://127.0.0.1:3/")
	if err != nil {
		t.Fatal(err)
	}
	if err := restore3(ctx); err != nil {
		t.Fatal(err)
	}
	if got, _ := demoWebhookFeature(ctx, t, srv3); got != quorums {
		t.Errorf("after the demo runs the webhook is %q, want the quorum's %q", got, quorums)
	}
}

func waitNoPendingWebhooks(ctx context.Context, t *testing.T, srv *Server) {
	t.Helper()
	for {
		st, err := srv.WebhookOutbox(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.Pending == 0 {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("webhook events still pending: %+v", st)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// setDemoWebhookFeature sets the demo organization's webhook directly, as
// it was before any demo run (how it got there does not matter here).
func setDemoWebhookFeature(ctx context.Context, t *testing.T, srv *Server, url string) {
	t.Helper()
	info, _, err := srv.loadDemo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.db.inTx(ctx, func(tx *txn) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO features(org_id, name, value) VALUES (?, ?, ?)
			ON CONFLICT(org_id, name) DO UPDATE SET value = excluded.value`, info.OrganizationID, api.FeatureWebhook, url)
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

func demoWebhookFeature(ctx context.Context, t *testing.T, srv *Server) (string, bool) {
	t.Helper()
	info, _, err := srv.loadDemo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var value string
	switch err := srv.db.read.QueryRowContext(ctx, `SELECT value FROM features WHERE org_id = ? AND name = ?`, info.OrganizationID, api.FeatureWebhook).Scan(&value); {
	case errors.Is(err, sql.ErrNoRows):
		return "", false
	case err != nil:
		t.Fatal(err)
	}
	return value, true
}
