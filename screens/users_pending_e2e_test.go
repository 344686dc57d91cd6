package screens

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// pendingKeyDeletionsOf lists the delete_api_keys activities waiting for votes.
func pendingKeyDeletionsOf(t *testing.T, c *api.Client) []api.Activity {
	t.Helper()
	acts, err := c.ListActivities(context.Background(), api.ListActivitiesOptions{
		Types: []string{api.TypeDeleteAPIKeys}, Statuses: []string{api.StatusConsensusNeeded}})
	if err != nil {
		t.Fatal(err)
	}
	return acts
}

// The demo seeds bob's pending deletion of one of operator's keys: alice's
// record of operator marks that key, and d on it offers the pending activity
// instead of proposing the same deletion a second time. On another key the
// confirm says the deletion waits for the root quorum, not that it happens
// at once.
func TestEndToEndPendingKeyDeletionIsMarkedAndNotDuplicated(t *testing.T) {
	d := servertest.StartDemo(t)
	alice := d.Client("alice")
	before := pendingKeyDeletionsOf(t, alice)
	if len(before) != 1 || len(before[0].Intent.DeleteAPIKeysIntent.APIKeyIDs) != 1 {
		t.Fatalf("the demo should seed one pending deletion of one key: %+v", before)
	}
	seeded := before[0]
	keyID := seeded.Intent.DeleteAPIKeysIntent.APIKeyIDs[0]

	h := demoHarness(t, d, nil)
	u := h.openUser("operator")
	if len(u.open.APIKeys) < 2 {
		t.Fatalf("operator's record has fewer than two keys:\n%s", h.frame())
	}
	note := "pending deletion: activity " + seeded.ID + ", 1/2 votes — approve it in Activities"
	if out := h.frame(); !strings.Contains(out, note) {
		t.Fatalf("the record does not mark the key with a pending deletion (%q):\n%s", note, out)
	}
	for range u.open.APIKeys {
		if u.open.APIKeys[u.cursor].APIKeyID == keyID {
			break
		}
		h.key("j")
	}
	if u.open.APIKeys[u.cursor].APIKeyID != keyID {
		t.Fatalf("the pending key %s is not in operator's record", keyID)
	}

	h.key("d")
	out := h.frame()
	for _, want := range []string{"Deletion already pending", `• "operator CI key (old)"`, "activity " + seeded.ID + ", 1/2 votes", "Open activity " + seeded.ID} {
		if !strings.Contains(out, want) {
			t.Errorf("d on a key with a pending deletion should say %q:\n%s", want, out)
		}
	}
	h.key("y")
	if got := h.root.ActiveTitle(); got != "Activities" {
		t.Fatalf("yes should open the pending activity; the console shows %s:\n%s", got, h.frame())
	}
	if det := h.activities().detail; det == nil || det.activity.ID != seeded.ID {
		t.Fatalf("the pending deletion %s is not the open activity:\n%s", seeded.ID, h.frame())
	}
	if after := pendingKeyDeletionsOf(t, alice); len(after) != 1 {
		t.Fatalf("a duplicate deletion was proposed: %d pending delete_api_keys", len(after))
	}
	// The pending list's WHAT names the key, so deletions of different keys
	// of one user read differently.
	h.key("esc")
	if out := h.frame(); !strings.Contains(out, `delete 1 API key "operator CI key (old)" of operator`) {
		t.Errorf("the WHAT column does not name the key:\n%s", out)
	}

	// Another key: the confirm says the deletion waits for approvals.
	h.gotoScreen("Users")
	for range u.open.APIKeys {
		if u.open.APIKeys[u.cursor].APIKeyID != keyID {
			break
		}
		h.key("k")
		if u.cursor == 0 && u.open.APIKeys[0].APIKeyID == keyID {
			h.key("j")
		}
	}
	h.key("d")
	out = h.frame()
	if !strings.Contains(out, "Delete API keys?") {
		t.Fatalf("d on a key without a pending deletion should ask to delete it:\n%s", out)
	}
	if strings.Contains(out, "stop authenticating at once") {
		t.Errorf("the confirm says the keys stop at once although the deletion waits for the root quorum:\n%s", out)
	}
	for _, want := range []string{"it waits for approvals:", `root quorum has 1 of 2 approvals ("alice").`, "The keys keep working until it completes;"} {
		if !strings.Contains(out, want) {
			t.Errorf("the confirm should say %q:\n%s", want, out)
		}
	}
	h.key("n")
	if after := pendingKeyDeletionsOf(t, alice); len(after) != 1 {
		t.Fatalf("no should propose nothing: %d pending delete_api_keys", len(after))
	}
}

// A pending delete_api_keys filed under the key owner's id that also names an
// id which is not a key of that user cannot succeed: the service fails the
// whole activity. Any member can file one. The record says it will fail
// rather than marking the key as good as deleted, and d proposes the real
// deletion. What the console says is then checked on the service: approved,
// the decoy fails and the key stays; the deletion d proposed deletes it.
func TestEndToEndDeletionNamingAStrangerKeyIsShownToFailAndDoesNotBlockTheKey(t *testing.T) {
	d := servertest.StartDemo(t)
	alice := d.Client("alice")
	ctx := context.Background()
	h := demoHarness(t, d, nil)
	u := h.openUser("operator")
	keyID := h.cursorToKeyWithoutPendingDeletion(u)
	cursor := u.cursor
	const stranger = "00000000-0000-4000-8000-000000000000"
	decoy, err := d.Client("bob").DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: u.open.UserID,
		APIKeyIDs: []string{keyID, stranger}})
	if err != nil || decoy.Status != api.StatusConsensusNeeded {
		t.Fatalf("bob files the decoy: %+v %v", decoy, err)
	}
	h.key("esc")
	h.key("enter") // opening the record reads the pending deletions again
	for u.cursor < cursor {
		h.key("j")
	}
	out := h.frame()
	if strings.Contains(out, "pending deletion: activity "+decoy.ID) {
		t.Errorf("the record marks the key as pending deletion by the decoy:\n%s", out)
	}
	if note := "pending deletion " + decoy.ID + " will fail: names " + stranger + ", not a key of this user"; !strings.Contains(out, note) {
		t.Errorf("the record does not say the decoy will fail (%q):\n%s", note, out)
	}

	h.key("d")
	out = h.frame()
	if strings.Contains(out, "Deletion already pending") || !strings.Contains(out, "Delete API keys?") {
		t.Fatalf("d does not propose the deletion:\n%s", out)
	}
	if !strings.Contains(out, "The pending deletion "+decoy.ID+" will fail") {
		t.Errorf("the confirm does not say why the pending decoy is no deletion:\n%s", out)
	}
	h.key("y")
	var real *api.Activity
	for _, a := range pendingKeyDeletionsOf(t, alice) {
		if ids := a.Intent.DeleteAPIKeysIntent.APIKeyIDs; a.ID != decoy.ID && len(ids) == 1 && ids[0] == keyID {
			real = &a
		}
	}
	if real == nil {
		t.Fatalf("yes proposed no deletion of %s:\n%s", keyID, h.frame())
	}

	carol := d.Client("carol")
	approve := func(act *api.Activity) *api.Activity {
		t.Helper()
		got, err := carol.ApproveActivity(ctx, act.Fingerprint)
		if err != nil {
			t.Fatalf("carol approves %s: %v", act.ID, err)
		}
		return got
	}
	if got := approve(decoy); got.Status != api.StatusFailed {
		t.Errorf("the quorum's approval of the decoy: status %s, want %s", got.Status, api.StatusFailed)
	}
	if _, err := alice.GetAPIKey(ctx, keyID); err != nil {
		t.Fatalf("the key should survive the decoy: %v", err)
	}
	if got := approve(real); got.Status != api.StatusCompleted {
		t.Fatalf("the quorum's approval of the deletion d proposed: status %s", got.Status)
	}
	if _, err := alice.GetAPIKey(ctx, keyID); err == nil {
		t.Errorf("the key %s still exists after the deletion d proposed completed", keyID)
	}
}
