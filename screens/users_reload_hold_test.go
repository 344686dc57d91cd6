package screens

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// The cursor in an open user is on a key, not a position: when the quorum
// deletes a key above it, the reload keeps it on the same key, or i would
// inspect, and d (no marks) propose deleting, a key the user never chose.
func TestUsersKeyCursorStaysOnItsKeyAcrossReload(t *testing.T) {
	users := governanceUsers()
	users[1].APIKeys = []api.APIKey{
		apiKey("k-bob-a", "bob a", "02cc0a", testNow.Add(-3*time.Hour), ""),
		apiKey("k-bob-b", "bob b", "02cc0b", testNow.Add(-2*time.Hour), ""),
		apiKey("k-bob-c", "bob c", "02cc0c", testNow.Add(-1*time.Hour), ""),
	}
	h, fake := usersHarnessWith(t, false, users)
	u := h.openUser("bob")
	for u.open.APIKeys[u.cursor].APIKeyID != "k-bob-b" {
		h.key("j")
	}
	fresh := governanceUsers()
	fresh[1].APIKeys = []api.APIKey{users[1].APIKeys[1], users[1].APIKeys[2]} // k-bob-a deleted by the quorum
	fake.mu.Lock()
	fake.users = fresh
	fake.mu.Unlock()
	h.msgs = nil
	h.key("r")
	if u.open == nil {
		t.Fatal("record closed")
	}
	if got := u.open.APIKeys[u.cursor].APIKeyID; got != "k-bob-b" {
		t.Errorf("the cursor was on k-bob-b; after the reload it is on %s", got)
	}
	if toasted(h.msgs, "gone") {
		t.Errorf("the key under the cursor is still there, yet the reload says one is gone: %v", h.msgs)
	}
}

// When the quorum deletes the very key under the cursor, the reload moves
// the cursor to another key and says so, naming both: d must not silently
// propose a key the user never chose.
func TestUsersKeyUnderCursorDeletedMeanwhileIsSaid(t *testing.T) {
	d, h, u, pending := onPendingKeyDeletion(t)
	keyID := pending.Intent.DeleteAPIKeysIntent.APIKeyIDs[0]
	goneName := u.open.APIKeys[u.cursor].APIKeyName
	if _, err := d.Client("carol").ApproveActivity(context.Background(), pending.Fingerprint); err != nil {
		t.Fatal(err)
	}
	h.msgs = nil
	h.key("r")
	if u.open == nil || len(u.open.APIKeys) == 0 {
		t.Fatal("operator's record closed, or lost every key")
	}
	if slices.ContainsFunc(u.open.APIKeys, func(k api.APIKey) bool { return k.APIKeyID == keyID }) {
		t.Fatalf("the approved deletion did not delete %s", keyID)
	}
	now := u.open.APIKeys[u.cursor].APIKeyName
	if !toasted(h.msgs, goneName) || !toasted(h.msgs, "under the cursor is gone") || !toasted(h.msgs, now) {
		t.Errorf("the key under the cursor (%q) is gone and the cursor moved to %q; the reload said: %v", goneName, now, h.msgs)
	}
}

// A reload that no longer lists the open user keeps its record, as last
// loaded, marked "no longer listed", with d off: closing it silently leaves
// the user wondering where it went.
func TestUsersOpenUserNoLongerListedIsSaid(t *testing.T) {
	h, fake := usersHarness(t, false)
	u := h.openUser("bob")
	fresh := slices.DeleteFunc(governanceUsers(), func(x api.User) bool { return x.UserID == "u-bob" })
	fake.mu.Lock()
	fake.users = fresh
	fake.mu.Unlock()
	h.msgs = nil
	h.key("r")
	if u.open == nil {
		t.Fatal("the record closed without a word")
	}
	if !toasted(h.msgs, "no longer listed") {
		t.Errorf("the reload no longer lists bob and said nothing: %v", h.msgs)
	}
	out := h.frame()
	if !strings.Contains(out, "no longer listed") || !strings.Contains(out, "bob") {
		t.Errorf("the record does not say bob is no longer listed:\n%s", out)
	}
	h.msgs = nil
	h.key("d")
	if strings.Contains(h.frame(), "Delete 1 API key(s)") {
		t.Errorf("d proposes deleting a key of a user no longer listed:\n%s", h.frame())
	}
	h.key("esc")
	if u.open != nil {
		t.Error("esc did not close the record")
	}
}
