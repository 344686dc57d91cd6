package screens

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// The author was warned that `activity.action != 'CREAT'` is always true (no
// activity has the action CREAT); the root member approving the policy is
// told the same, in the vote dialog and in the activity's detail: a warning
// never stopped the submit.
func TestEndToEndVoteDialogShowsConditionWarnings(t *testing.T) {
	d := servertest.StartDemo(t)
	const cond = "activity.resource == 'POLICY' && activity.action != 'CREAT'"
	act, err := d.Client("alice").CreatePolicy(context.Background(), api.CreatePolicyParams{PolicyName: "names",
		Effect: api.EffectAllow, Condition: cond, Consensus: "approvers.count() >= 1"})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", act, err)
	}
	h := memberConsole(t, d.Client("bob"))
	h.selectActivityID(act.ID)
	const want = `⚠ warning: column 53: "CREAT"`
	h.key("enter")
	if f := h.frame(); !strings.Contains(f, "condition:  "+want) {
		t.Errorf("the activity's detail does not show the condition's warning:\n%s", f)
	}
	h.key("esc")
	if flat := approveDialogText(t, h); !strings.Contains(flat, want) {
		t.Errorf("the vote dialog does not show the condition's warning:\n%s", flat)
	}
}
