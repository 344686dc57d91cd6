package screens

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// A proposed consensus "anyone but alice" written with alice's name:
// u.id != 'alice' is always true, so the policy admits anyone, alice too.
// The vote dialog and the activity detail say so, not that it "never
// matches", which reads as an inert policy (audit 214, M2).
func TestVoteDialogSaysANegatedNameComparisonIsAlwaysTrue(t *testing.T) {
	d := servertest.StartDemo(t)
	h := memberConsole(t, d.Client("alice"))
	var aliceID string
	for id, n := range h.root.common.Org.UserNames {
		if n == "alice" {
			aliceID = id
		}
	}
	if aliceID == "" {
		t.Fatal("no user alice")
	}
	act, err := d.Client("carol").CreatePolicy(context.Background(), api.CreatePolicyParams{PolicyName: "Anyone but alice deletes deployments",
		Effect: api.EffectAllow, Condition: "activity.type == 'ACTIVITY_TYPE_DELETE_TVC_DEPLOYMENT'",
		Consensus: "approvers.all(u, u.id != 'alice')"})
	if err != nil {
		t.Fatal(err)
	}
	h.key("r")
	h.key("g")
	h.selectActivityID(act.ID)
	h.key("enter")
	detail := strings.Join(strings.Fields(h.frame()), " ")
	text := approveDialogText(t, h)
	for where, out := range map[string]string{"vote dialog": text, "activity detail": detail} {
		if want := `⚠ "alice" is the NAME of user ` + aliceID; !strings.Contains(out, want) {
			t.Errorf("the %s does not warn that alice is a name (want %q):\n%s", where, want, out)
		}
		if !strings.Contains(out, "always true (it excludes no one)") {
			t.Errorf("the %s does not say the != is always true:\n%s", where, out)
		}
		if strings.Contains(out, "never matches") {
			t.Errorf("the %s says a comparison that admits anyone never matches:\n%s", where, out)
		}
	}
}
