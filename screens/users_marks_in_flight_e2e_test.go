package screens

import (
	"strconv"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/server/servertest"
)

// While a delete_api_keys is in flight, d is off but space still marks keys.
// The reply clears the marks of the keys it deleted only: a key marked
// meanwhile stays marked, and the next d proposes it, not the key under the
// cursor. Against the local service.
func TestMarksMadeWhileADeletionIsInFlightSurviveItsReply(t *testing.T) {
	d := servertest.StartDemo(t)
	h := demoHarness(t, d, nil)
	u := h.openUser("operator")
	if len(u.open.APIKeys) < 2 {
		t.Fatalf("set-up: operator has %d keys, want 2 or more", len(u.open.APIKeys))
	}
	first := u.open.APIKeys[0]
	h.key("space")
	// d on the marked first key, confirmed: the request is in flight (its
	// reply not yet delivered).
	_, cmd := h.root.Update(deleteKeysConfirmedMsg{userID: u.open.UserID, keyIDs: []string{first.APIKeyID}})
	if u.deleting == nil {
		t.Fatal("set-up: no deletion in flight")
	}
	// Meanwhile the user marks the second key, then goes back to the first.
	h.key("j")
	h.key("space")
	marked := u.open.APIKeys[1]
	h.key("k")
	if !u.marked[marked.APIKeyID] {
		t.Fatalf("set-up: %s not marked", marked.APIKeyID)
	}
	h.run(cmd) // the reply lands (and jumps to Activities: the activity waits for votes)
	h.key("@Users")
	if u.marked[first.APIKeyID] {
		t.Errorf("the mark of %s, whose deletion was submitted, stayed", first.APIKeyID)
	}
	if !u.marked[marked.APIKeyID] {
		t.Errorf("the deletion's reply dropped the mark made meanwhile on %s", marked.APIKeyName)
	}
	h.key("d")
	// The dialog lists the keys it is about as bullets (the demo's key names
	// hold parentheses: quoted).
	if f := h.plainFrame(); !strings.Contains(f, "• "+strconv.Quote(marked.APIKeyName)) || strings.Contains(f, "• "+strconv.Quote(first.APIKeyName)) {
		t.Errorf("d, pressed for the key marked (%s), proposes something else:\n%s", marked.APIKeyName, f)
	}
}
