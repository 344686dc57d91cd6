package server

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/webhook"
)

// Found by audit64. An event of the demo organization pending for its own URL
// U; a later 'vigil demo' run pointed the webhook at its listener and crashed
// before restoring it. A service that is not that run ('vigil serve') must
// send nothing to the crashed run's port, which may be another program's now.
func TestQueuedEventIsNotRepointedToACrashedDemoRunsPort(t *testing.T) {
	dir := t.TempDir()
	ctx := ctxT(t)
	opts := WebhookOptions{Delivery: webhook.DelivererOptions{MaxAttempts: 1}, Requeue: time.Hour}

	// Run 1: the organization's own webhook U, down; an event waits for it.
	down, _ := newDownReceiver(t)
	srv, c := openDemoRun(t, dir, Config{Webhooks: opts})
	if err := srv.db.inTx(ctx, func(tx *txn) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO features(org_id, name, value) VALUES (?, ?, ?)
			ON CONFLICT(org_id, name) DO UPDATE SET value = excluded.value`, c.OrganizationID(), api.FeatureWebhook, down.url)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateReadOnlySession(ctx); err != nil {
		t.Fatal(err)
	}
	for down.requestCount() < 1 {
		time.Sleep(5 * time.Millisecond)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}

	// Run 2: a demo run points the webhook at its listener and crashes.
	oldLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	oldAddr := oldLn.Addr().String()
	oldLn.Close()
	srv, _ = openDemoRun(t, dir, Config{HoldWebhooks: true, Webhooks: opts})
	if _, err := PointDemoWebhook(ctx, srv, "http://"+oldAddr+"/"); err != nil {
		t.Fatal(err)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	otherLn, err := net.Listen("tcp", oldAddr)
	if err != nil {
		t.Skip(err)
	}
	other, stray := eventReceiver(otherLn)
	t.Cleanup(other.Close)

	// Run 3: 'vigil serve'.
	srv, _ = openDemoRun(t, dir, Config{Webhooks: opts})
	defer srv.Close()
	select {
	case id := <-stray:
		t.Fatalf("event %s was POSTed to the crashed demo run's port, now another program's", id)
	case <-time.After(3 * time.Second):
	}
	_ = context.Background
}
