package screens

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// As with allowing policies (TestVoteDialogCountsManyAllowingPolicies), an
// organization may hold many policies that deny the same activity once a
// member (here alice) approves it: the prediction says it FAILS, names the first few
// denying policies and counts the rest, so that the fingerprint is not buried
// under their names. Against the local service.
func TestVoteDialogCountsManyDenyingPolicies(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	aliceID := ""
	for _, m := range d.Info.Members {
		if m.Name == "alice" {
			aliceID = m.UserID
		}
	}
	const denying = 20
	long := strings.Repeat("p", 200)
	for i := range denying {
		pol, err := d.Client("alice").CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: fmt.Sprintf("deny %02d %s", i, long),
			Effect: api.EffectDeny, Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'",
			Consensus: "approvers.any(u, u.id == '" + aliceID + "')", Notes: "n"})
		if err == nil && pol.Status == api.StatusConsensusNeeded {
			pol, err = d.Client("bob").ApproveActivity(ctx, pol.Fingerprint)
		}
		if err != nil || pol.Status != api.StatusCompleted {
			t.Fatalf("create policy %d: %v %+v", i, err, pol)
		}
	}
	operatorID := d.Info.Members[3].UserID
	act, err := d.Client("operator").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "denied", UserIDs: []string{operatorID}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("operator's proposal: %v %+v", err, act)
	}
	h := memberConsole(t, d.Client("alice"))
	h.selectActivityID(act.ID)
	h.key("a")
	body, more := dialogBody(t, h.frame(), "Approve this activity?")
	text := strings.Join(strings.Fields(strings.Join(body, " ")), " ")
	if !strings.Contains(text, "it FAILS: denied explicitly by") || !strings.Contains(text, fmt.Sprintf("and %d more (the evaluations view lists them all)", denying-3)) {
		t.Errorf("the prediction does not count the denying policies past the first 3:\n%s", h.frame())
	}
	if strings.Contains(text, "deny 03") {
		t.Errorf("the prediction names a 4th denying policy:\n%s", h.frame())
	}
	if more != "" || !strings.Contains(text, "fingerprint:") {
		t.Errorf("the dialog must be scrolled (%q) to read a prediction of a few names:\n%s", more, h.frame())
	}
}
