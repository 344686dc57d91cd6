package screens

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// dialogText is the vote dialog's body, its words joined by single spaces.
func dialogText(t *testing.T, h *harness) string {
	t.Helper()
	body, _ := dialogBody(t, h.frame(), "Approve this activity?")
	return strings.Join(strings.Fields(strings.Join(body, " ")), " ")
}

// pushOffList lists pageSize newer activities, so act leaves the first
// page, and fails the test if it is still listed.
func pushOffList(t *testing.T, d *servertest.Demo, h *harness, act *api.Activity, run func(tea.Cmd)) {
	t.Helper()
	backlog(t, d, pageSize)
	a := h.activities()
	run(a.load())
	if slices.ContainsFunc(a.items, func(it api.Activity) bool { return it.ID == act.ID }) {
		t.Fatalf("set-up: %s is still listed", act.ID)
	}
	if !h.voteDialogOpen() {
		t.Fatalf("set-up: the dialog closed when its activity left the list:\n%s", h.frame())
	}
}

// The vote dialog's activity leaves the list (pushed off the first page)
// while the dialog's read of the organization is in flight; the read then
// lands with a policy under which carol's approval alone runs the
// activity. The dialog restates its prediction from the copy it follows,
// and y only confirms the new text was read.
func TestVoteDialogOffTheListRestatesWhenItsReadLands(t *testing.T) {
	d, h, _, tag := tagUnderUnseenPolicy(t)
	h.selectActivityID(tag.ID)
	var held []tea.Msg
	_, cmd := h.root.Update(keyPress("a"))
	runHoldingOrgLoads(h, cmd, &held)
	if len(held) != 1 || !h.voteDialogOpen() || !strings.Contains(dialogText(t, h), "it still waits") {
		t.Fatalf("set-up: %d loads held, dialog open %v:\n%s", len(held), h.voteDialogOpen(), h.frame())
	}
	pushOffList(t, d, h, tag, func(cmd tea.Cmd) { runHoldingOrgLoads(h, cmd, &held) })
	for _, msg := range held {
		h.send(msg)
	}
	text := dialogText(t, h)
	if !strings.Contains(text, `allowed by policy "carol alone allows tags"`) || !strings.Contains(text, "changed while open") {
		t.Fatalf("the read landed with the policy, and the dialog of the activity no longer listed does not show and announce the prediction from it:\n%s", h.frame())
	}
	h.key("y") // confirms the new text was read
	if carolVoted(t, d, tag) {
		t.Fatalf("the y after the restated prediction voted instead of confirming it was read:\n%s", h.frame())
	}
}

// The dialog's read lands while the activity is listed, then the activity
// leaves the list, then a policy completes and a later read of the
// organization brings it: the dialog restates its prediction from it too.
func TestVoteDialogOffTheListRestatesOnALaterRead(t *testing.T) {
	d, h, pol, tag := tagUnderPendingPolicy(t)
	h.selectActivityID(tag.ID)
	h.key("a")
	if !h.voteDialogOpen() || !strings.Contains(dialogText(t, h), "it still waits") {
		t.Fatalf("set-up: no dialog predicting that the tag still waits:\n%s", h.frame())
	}
	pushOffList(t, d, h, tag, h.run)
	completeElsewhere(t, d, pol)
	h.send(reloadOrgMsg{}) // the org watch, the retry: a later read
	if !h.voteDialogOpen() {
		t.Fatalf("set-up: the dialog closed:\n%s", h.frame())
	}
	text := dialogText(t, h)
	if !strings.Contains(text, `allowed by policy "carol alone allows tags"`) || !strings.Contains(text, "changed while open") {
		t.Fatalf("a later read brought the policy, and the dialog of the activity no longer listed does not show and announce the prediction from it:\n%s", h.frame())
	}
	h.key("y")
	if carolVoted(t, d, tag) {
		t.Fatalf("the y after the restated prediction voted instead of confirming it was read:\n%s", h.frame())
	}
}

// The dialog's read fails (POSSIBLY STALE), then a later read of the
// organization succeeds while it is open: the dialog no longer says the
// organization could not be read again, and says it was.
func TestVoteDialogStaleCaveatEndsWithASuccessfulRead(t *testing.T) {
	d, tag, h, failing := voteDialogWhoseReadFails(t)
	if frame := strings.Join(strings.Fields(h.frame()), " "); !strings.Contains(frame, "POSSIBLY STALE") {
		t.Fatalf("set-up: no caveat:\n%s", h.frame())
	}
	failing.Store(false)
	h.send(reloadOrgMsg{})
	if h.root.orgErr != "" || !h.voteDialogOpen() {
		t.Fatalf("set-up: the later read failed (%q) or the dialog closed", h.root.orgErr)
	}
	frame := strings.Join(strings.Fields(h.frame()), " ")
	if strings.Contains(frame, "could not be read again") || strings.Contains(frame, "POSSIBLY STALE") {
		t.Fatalf("the organization was read again successfully, and the dialog still says it could not be:\n%s", h.frame())
	}
	if !strings.Contains(frame, "the organization was read again") {
		t.Errorf("the caveat went without a word that the organization was read again:\n%s", h.frame())
	}
	h.key("y")
	if !carolVoted(t, d, tag) {
		t.Errorf("y did not answer after the successful read:\n%s", h.frame())
	}
}
