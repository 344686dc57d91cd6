package screens

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// The "without the votes that FAILED" line warns that the prediction
// holds only by counting them; it is not shown when the outcome is the
// same either way. Here alice's real approval and carol's complete the tag
// with or without bob's forged vote: the two predictions name different
// approvers, but say the same thing happens.
func TestVoteDialogNoWithoutLineWhenTheOutcomeIsTheSame(t *testing.T) {
	d := servertest.StartDemo(t)
	a := proposedTag(t, d, "same-this")
	if a2, err := d.Client("alice").ApproveActivity(context.Background(), a.Fingerprint); err != nil || a2.Status != api.StatusConsensusNeeded {
		t.Fatalf("set-up: alice's approval should leave it waiting: %+v %v", a2, err)
	}
	_, f := carolApprovesWithBobsVoteOf(t, d, a, proposedTag(t, d, "same-other"))
	if !strings.Contains(f, "if you approve: it is allowed and runs now") {
		t.Fatalf("set-up: carol's approval completes it:\n%s", f)
	}
	if strings.Contains(f, "without the votes that FAILED their check") {
		t.Errorf("carol's approval completes it with or without bob's forged vote, yet the dialog warns it holds only by counting it:\n%s", f)
	}
}

// The requester's vote FAILED its check (a proxy renamed the tag shown):
// without it, nothing approves the tag, and the service still holds alice
// as having voted (her submission), so only bob may approve, and one root
// approval is not the two the quorum needs. Carol's rejection then settles
// it: the dialog says so under its prediction, rather than counting alice
// among those who may still vote.
func TestVoteDialogWithoutAFailedVoteKeepsItsVoterAsVoted(t *testing.T) {
	d := servertest.StartDemo(t)
	a, err := d.Client("alice").CreateUserTag(context.Background(), api.CreateUserTagParams{UserTagName: "requester-failed", UserIDs: []string{}})
	if err != nil || a.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", a, err)
	}
	h := carolVia(t, d, a.ID, func(m map[string]any) {
		m["intent"] = map[string]any{"createUserTagIntent": map[string]any{"userTagName": "renamed", "userIds": []string{}}}
	})
	h.key("x")
	if !h.voteDialogOpen() {
		t.Fatalf("set-up: no reject dialog:\n%s", h.frame())
	}
	f := h.frame()
	if !strings.Contains(f, `WARNING: the vote of "alice" FAILED`) || !strings.Contains(f, "if you reject: it stays pending") {
		t.Fatalf("set-up: alice's vote should fail, and counted, leave the tag pending:\n%s", f)
	}
	if !strings.Contains(f, "but without the votes that FAILED their check: it is REJECTED") {
		t.Errorf("without alice's failed approval only bob may approve, which cannot reach the quorum:\n%s", f)
	}
}

// proposedTag is the operator's proposal of a tag named name: it waits for
// two root approvals.
func proposedTag(t *testing.T, d *servertest.Demo, name string) *api.Activity {
	t.Helper()
	a, err := d.Client("operator").CreateUserTag(context.Background(), api.CreateUserTagParams{UserTagName: name, UserIDs: []string{}})
	if err != nil || a.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose %s: %+v %v", name, a, err)
	}
	return a
}

// carolApprovesWithBobsVoteOf has bob approve other, and opens carol's
// approve dialog on a through a proxy that shows bob's real approval of
// other as his vote on a (a vote that FAILS its check); it returns the
// console and the dialog's frame.
func carolApprovesWithBobsVoteOf(t *testing.T, d *servertest.Demo, a, other *api.Activity) (*harness, string) {
	t.Helper()
	onOther, err := d.Client("bob").ApproveActivity(context.Background(), other.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	bobsVote := onOther.VoteOf(memberIDOf(t, d, "bob"))
	if bobsVote == nil {
		t.Fatalf("set-up: no vote by bob: %+v", onOther.Votes)
	}
	forged := *bobsVote
	forged.ActivityID = a.ID
	h := carolVia(t, d, a.ID, func(m map[string]any) {
		m["votes"] = append(m["votes"].([]any), forged)
	})
	h.key("a")
	if !h.voteDialogOpen() {
		t.Fatalf("set-up: no approve dialog:\n%s", h.frame())
	}
	return h, h.frame()
}
