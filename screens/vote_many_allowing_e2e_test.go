package screens

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// An organization may hold hundreds of policies that allow the same
// activity: the vote dialog's prediction names the first few and counts the
// rest, so the outcome and the fingerprint are not buried under names the
// member would have to page through before y is accepted; the activity's
// evaluations still name every one. Against the local service.
func TestVoteDialogCountsManyAllowingPolicies(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	carolID := ""
	for _, m := range d.Info.Members {
		if m.Name == "carol" {
			carolID = m.UserID
		}
	}
	const allowing = 20
	long := strings.Repeat("p", 200)
	for i := range allowing {
		pol, err := d.Client("alice").CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: fmt.Sprintf("many %02d %s", i, long),
			Effect: api.EffectAllow, Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'",
			Consensus: "approvers.any(u, u.id == '" + carolID + "')", Notes: "n"})
		if err == nil && pol.Status == api.StatusConsensusNeeded {
			pol, err = d.Client("bob").ApproveActivity(ctx, pol.Fingerprint)
		}
		if err != nil || pol.Status != api.StatusCompleted {
			t.Fatalf("create policy %d: %v %+v", i, err, pol)
		}
	}
	operatorID := d.Info.Members[3].UserID
	act, err := d.Client("operator").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "counted", UserIDs: []string{operatorID}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("operator's proposal: %v %+v", err, act)
	}
	h := memberConsole(t, d.Client("carol"))
	h.selectActivityID(act.ID)
	h.key("a")
	body, more := dialogBody(t, h.frame(), "Approve this activity?")
	text := strings.Join(strings.Fields(strings.Join(body, " ")), " ")
	if !strings.Contains(text, "it is allowed and runs now") || !strings.Contains(text, fmt.Sprintf("and %d more (the evaluations view lists them all)", allowing-3)) {
		t.Errorf("the prediction does not count the allowing policies past the first 3:\n%s", h.frame())
	}
	if strings.Contains(text, "many 03") {
		t.Errorf("the prediction names a 4th allowing policy:\n%s", h.frame())
	}
	if more != "" || !strings.Contains(text, "fingerprint:") {
		t.Errorf("the dialog must be scrolled (%q) to read a prediction of a few names:\n%s", more, h.frame())
	}
}
