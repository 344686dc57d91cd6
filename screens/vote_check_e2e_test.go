package screens

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// A proxy adds to activity A, which only alice (its requester) approved,
// bob's real signed approval of another activity B: "approved by bob", a
// vote bob never cast on A. Carol, about to add the last approval, sees it
// FAILED in the detail (alice's verified), and the vote dialog warns.
func TestEndToEndForeignVoteFailsItsCheck(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	alice, bob := d.Client("alice"), d.Client("bob")
	b, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "check-b", UserIDs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	onB, err := bob.ApproveActivity(ctx, b.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	var bobID string
	for _, m := range d.Info.Members {
		if m.Name == "bob" {
			bobID = m.UserID
		}
	}
	bobsVote := onB.VoteOf(bobID)
	if bobsVote == nil {
		t.Fatalf("set-up: no vote by bob on B: %+v", onB.Votes)
	}
	a, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "check-a", UserIDs: []string{}})
	if err != nil || a.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", a, err)
	}
	forged := *bobsVote
	forged.ActivityID = a.ID
	carol := d.ClientAt(d.Rewriting(func(op string, request, reply []byte) []byte {
		if op != "query/"+api.QueryGetActivity || !strings.Contains(string(request), a.ID) {
			return reply
		}
		var m map[string]map[string]any
		if json.Unmarshal(reply, &m) != nil {
			return reply
		}
		m["activity"]["votes"] = append(m["activity"]["votes"].([]any), forged)
		out, _ := json.Marshal(m)
		return out
	}), "carol", api.WithExactStrings())
	h := newHarnessWith(t, carol, carol, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 200, Height: 300})
	h.selectActivityID(a.ID)
	h.key("enter")
	text := h.detailText()
	if !strings.Contains(text, "FAILED its signature check") {
		t.Errorf("bob's vote copied from another activity is not marked FAILED:\n%s", text)
	}
	if !strings.Contains(text, "signature verified: signed the activity's submission") {
		t.Errorf("alice's own submission is not marked verified:\n%s", text)
	}
	h.key("a")
	if !h.voteDialogOpen() {
		t.Fatalf("set-up: no approve dialog:\n%s", h.frame())
	}
	if f := h.frame(); !strings.Contains(f, `WARNING: the vote of "bob" FAILED its signature check`) {
		t.Errorf("the vote dialog does not warn that a counted vote failed its check:\n%s", f)
	}
}

// The operator's tag waits for two root approvals; a proxy shows bob's
// real approval of another activity as his vote on it. Carol's approval
// would complete it only by counting that vote: the dialog says what her
// vote does with it and what it does without it, as a warning.
func TestVoteDialogPredictsWithoutTheVoteThatFailed(t *testing.T) {
	d := servertest.StartDemo(t)
	a := proposedTag(t, d, "predict-this")
	_, f := carolApprovesWithBobsVoteOf(t, d, a, proposedTag(t, d, "predict-other"))
	if !strings.Contains(f, "if you approve: it is allowed and runs now") {
		t.Fatalf("set-up: counting bob's shown vote, carol's approval should complete it:\n%s", f)
	}
	if !strings.Contains(f, "but without the votes that FAILED their check: it still waits") {
		t.Errorf("the dialog does not say carol's approval completes it only with the vote that FAILED:\n%s", f)
	}
	// Without a failed vote the dialog says nothing of the kind.
	h := carolVia(t, d, a.ID, nil)
	h.key("a")
	if f := h.frame(); strings.Contains(f, "without the votes that FAILED") {
		t.Errorf("an honest activity's dialog speaks of failed votes:\n%s", f)
	}
}
