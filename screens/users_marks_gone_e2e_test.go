package screens

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// A marked API key the quorum deletes meanwhile: the refresh says its mark
// went with it, and d, pressed for the keys that were marked, does not
// propose deleting the key under the cursor (the operator's working key,
// never chosen) until pressed again.
func TestMarkedKeyDeletedMeanwhileIsSaidAndDDoesNotFallBackToTheCursor(t *testing.T) {
	d, h, u, pending := onPendingKeyDeletion(t)
	keyID := pending.Intent.DeleteAPIKeysIntent.APIKeyIDs[0]
	markedName := u.open.APIKeys[u.cursor].APIKeyName
	h.key("space")
	if !u.marked[keyID] {
		t.Fatalf("space did not mark %s", keyID)
	}
	if _, err := d.Client("carol").ApproveActivity(context.Background(), pending.Fingerprint); err != nil {
		t.Fatal(err)
	}
	h.msgs = nil
	h.key("r")
	if len(u.marked) != 0 {
		t.Fatalf("the mark of the deleted key %s stayed", keyID)
	}
	if !toasted(h.msgs, markedName) || !toasted(h.msgs, "gone") {
		t.Errorf("the refresh dropped the mark of %q and said nothing", markedName)
	}

	h.msgs = nil
	h.key("d")
	if strings.Contains(h.frame(), "Delete 1 API key(s)") {
		t.Fatalf("d, pressed for the marked key now gone, proposes deleting another key:\n%s", h.frame())
	}
	if !toasted(h.msgs, "nothing is marked now") {
		t.Error("d did not say why it proposes nothing")
	}
	// Told once: the next d is a choice made knowing the marks are gone.
	h.key("d")
	if out := h.frame(); !strings.Contains(out, "Delete 1 API key(s)") {
		t.Errorf("the second d does not offer the key under the cursor:\n%s", out)
	}
}

// onPendingKeyDeletion opens the demo's operator in a console with the
// cursor on the API key the demo's one pending deletion would delete.
func onPendingKeyDeletion(t *testing.T) (*servertest.Demo, *harness, *Users, api.Activity) {
	t.Helper()
	d := servertest.StartDemo(t)
	pending := pendingKeyDeletionsOf(t, d.Client("alice"))
	if len(pending) != 1 {
		t.Fatalf("the demo should seed one pending key deletion: %+v", pending)
	}
	keyID := pending[0].Intent.DeleteAPIKeysIntent.APIKeyIDs[0]
	h := demoHarness(t, d, nil)
	u := h.openUser("operator")
	for range u.open.APIKeys {
		if u.open.APIKeys[u.cursor].APIKeyID == keyID {
			break
		}
		h.key("j")
	}
	if u.open.APIKeys[u.cursor].APIKeyID != keyID {
		t.Fatalf("the key %s is not in operator's record", keyID)
	}
	return d, h, u, pending[0]
}
