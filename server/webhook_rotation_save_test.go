package server

import (
	"context"
	"errors"
	"log/slog"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

// A rotation whose save fails rotates nothing: the new key never signs and
// is never published (a crash would lose it while receivers hold it), the
// previous key signs on, the failure is logged, and a restarted service has
// that same key; a rotation that is saved survives the restart.
func TestWebhookKeyRotationSavedBeforeUse(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	logs := &logBuffer{}
	srv, err := Open(Config{DataDir: dir, HoldWebhooks: true, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	h := httptest.NewServer(srv.Handler())
	oldKid := srv.ActiveWebhookKeyID()

	srv.db.write.faults.set(func(query string, args []any) error {
		if strings.Contains(query, "service_state") && slices.Contains(args, any(stateWebhookRing)) {
			return &storageError{err: errors.New("injected: disk full"), reason: "the disk is full", advice: "free space"}
		}
		return nil
	})
	kid, err := srv.RotateWebhookKey(ctx)
	if err == nil {
		t.Fatalf("the rotation succeeded (kid %s) though its save failed", kid)
	}
	if got := srv.ActiveWebhookKeyID(); got != oldKid {
		t.Errorf("after a failed save the active key is %s, want the previous key %s", got, oldKid)
	}
	if kids := publishedKids(t, h.URL); !slices.Equal(kids, []string{oldKid}) {
		t.Errorf("after a failed save the JWKS publishes %v, want only %s", kids, oldKid)
	}
	if !strings.Contains(logs.String(), "webhook signing key not rotated") {
		t.Errorf("the failed rotation is not logged:\n%s", logs.String())
	}
	srv.db.write.faults.set(nil)
	h.Close()
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}

	srv, err = Open(Config{DataDir: dir, HoldWebhooks: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := srv.ActiveWebhookKeyID(); got != oldKid {
		t.Errorf("after a restart the active key is %s, want %s", got, oldKid)
	}
	newKid, err := srv.RotateWebhookKey(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	srv, err = Open(Config{DataDir: dir, HoldWebhooks: true})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if got := srv.ActiveWebhookKeyID(); got != newKid || got == oldKid {
		t.Errorf("after a saved rotation and a restart the active key is %s, want the rotated %s", got, newKid)
	}
}
