package screens

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// A policy on an older page of Pending, one the console never showed,
// completes: no copy the console holds shows it, and the vote dialog opened
// afterwards reads the organization again before its prediction is
// confirmed.
func TestVoteDialogReadsTheOrganizationAgain(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	carolID, operatorID := "", ""
	for _, m := range d.Info.Members {
		switch m.Name {
		case "carol":
			carolID = m.UserID
		case "operator":
			operatorID = m.UserID
		}
	}
	pol, err := d.Client("bob").CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "carol alone allows tags",
		Effect: api.EffectAllow, Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'",
		Consensus: "approvers.any(u, u.id == '" + carolID + "')", Notes: "n"})
	if err != nil || pol.Status != api.StatusConsensusNeeded {
		t.Fatalf("bob's policy: %v %+v", err, pol)
	}
	backlog(t, d, pageSize+10) // the policy is on the older page
	tag, err := d.Client("operator").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "watched", UserIDs: []string{operatorID}})
	if err != nil || tag.Status != api.StatusConsensusNeeded {
		t.Fatalf("operator's tag: %v %+v", err, tag)
	}
	h := memberConsole(t, d.Client("carol"))
	a := h.activities()
	if slices.ContainsFunc(a.items, func(it api.Activity) bool { return it.ID == pol.ID }) {
		t.Fatal("set-up: the policy is on the first page")
	}

	completeElsewhere(t, d, pol)
	h.run(a.load())
	h.selectActivityID(tag.ID)
	h.key("a")
	body, _ := dialogBody(t, h.frame(), "Approve this activity?")
	text := strings.Join(strings.Fields(strings.Join(body, " ")), " ")
	if strings.Contains(text, "it still waits") || !strings.Contains(text, `allowed by policy "carol alone allows tags"`) {
		t.Fatalf("the dialog predicts from the policies loaded before the new one completed:\n%s", h.frame())
	}
	if !strings.Contains(text, "changed while open") {
		t.Errorf("the dialog's prediction changed with the read, and it does not say so (a y typed for the first text would vote):\n%s", h.frame())
	}
}
