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
	voteDialogCountsManyPolicies(t, api.EffectAllow, "carol", "it is allowed and runs now")
}

// As many policies may deny the same activity once a member approves it:
// the prediction says it FAILS, names the first few denying policies and
// counts the rest.
func TestVoteDialogCountsManyDenyingPolicies(t *testing.T) {
	voteDialogCountsManyPolicies(t, api.EffectDeny, "alice", "it FAILS: denied explicitly by")
}

// voteDialogCountsManyPolicies creates 20 policies of effect whose consensus
// is voter's approval of a tag creation, has operator propose one, opens
// voter's approve dialog and checks that its prediction (outcome) names 3 of
// them and counts the other 17, with the fingerprint in view.
func voteDialogCountsManyPolicies(t *testing.T, effect, voter, outcome string) {
	t.Helper()
	d := servertest.StartDemo(t)
	ctx := context.Background()
	voterID := ""
	for _, m := range d.Info.Members {
		if m.Name == voter {
			voterID = m.UserID
		}
	}
	const many = 20
	long := strings.Repeat("p", 200)
	for i := range many {
		pol, err := d.Client("alice").CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: fmt.Sprintf("many %02d %s", i, long),
			Effect: effect, Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'",
			Consensus: "approvers.any(u, u.id == '" + voterID + "')", Notes: "n"})
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
	h := memberConsole(t, d.Client(voter))
	h.selectActivityID(act.ID)
	h.key("a")
	body, more := dialogBody(t, h.frame(), "Approve this activity?")
	text := strings.Join(strings.Fields(strings.Join(body, " ")), " ")
	if !strings.Contains(text, outcome) || !strings.Contains(text, fmt.Sprintf("and %d more (the evaluations view lists them all)", many-3)) {
		t.Errorf("the prediction does not say %q counting the %s policies past the first 3:\n%s", outcome, effect, h.frame())
	}
	if strings.Contains(text, "many 03") {
		t.Errorf("the prediction names a 4th %s policy:\n%s", effect, h.frame())
	}
	if more != "" || !strings.Contains(text, "fingerprint:") {
		t.Errorf("the dialog must be scrolled (%q) to read a prediction of a few names:\n%s", more, h.frame())
	}
}
