package screens

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// A policy proposed and completed elsewhere between two refreshes is never
// on the pending list, yet it changes what a vote would do: the console's
// next refresh sees it completed among the newest activities, reloads the
// policies, and an open vote dialog restates its prediction. Against the
// local service.
func TestPolicyCompletedBetweenRefreshesReachesAnOpenVoteDialog(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	carolID := ""
	for _, m := range d.Info.Members {
		if m.Name == "carol" {
			carolID = m.UserID
		}
	}
	operatorID := d.Info.Members[3].UserID
	act, err := d.Client("operator").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "watched", UserIDs: []string{operatorID}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("operator's proposal: %v %+v", err, act)
	}
	h := memberConsole(t, d.Client("carol"))
	a := h.activities()
	h.selectActivityID(act.ID)
	h.key("a")
	if before := h.frame(); !strings.Contains(before, "if you approve: it still waits") {
		t.Fatalf("set-up: the dialog does not say carol's approval leaves it waiting:\n%s", before)
	}

	// Alice proposes, bob approves at once: the policy is never pending at a refresh.
	pol, err := d.Client("alice").CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "carol alone allows tags",
		Effect: api.EffectAllow, Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'",
		Consensus: "approvers.any(u, u.id == '" + carolID + "')", Notes: "n"})
	if err == nil && pol.Status == api.StatusConsensusNeeded {
		pol, err = d.Client("bob").ApproveActivity(ctx, pol.Fingerprint)
	}
	if err != nil || pol.Status != api.StatusCompleted {
		t.Fatalf("create policy: %v %+v", err, pol)
	}
	h.run(a.load())
	body, _ := dialogBody(t, h.frame(), "Approve this activity?")
	after := strings.Join(strings.Fields(strings.Join(body, " ")), " ")
	if strings.Contains(after, "it still waits") || !strings.Contains(after, `allowed by policy "carol alone allows tags"`) || !strings.Contains(after, "changed while open") {
		t.Fatalf("the open dialog still predicts from the policies before the new one, or does not say it changed:\n%s", h.frame())
	}
	// What it now predicts is what the service does.
	h.key("y")
	h.key("y")
	if got, err := d.Client("alice").GetActivity(ctx, act.ID); err != nil || got.Status != api.StatusCompleted {
		t.Errorf("after carol's approval: %v %+v, want COMPLETED as the dialog predicted", err, got)
	}
}
