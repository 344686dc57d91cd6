package cli

import (
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/screens"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// Alice creates a policy through the Policies screen's form on the local
// service; the console takes her to the created activity; bob approves it
// (the root quorum is two); the policy is then listed.
func TestConsoleCreatesPolicyThroughTheFormEndToEnd(t *testing.T) {
	demo := servertest.StartDemo(t)
	alice, bob := demo.Client("alice"), demo.Client("bob")
	ctx := context.Background()

	root := screens.NewRoot(screens.Options{Reader: alice, Submitter: alice, Profile: "alice",
		Theme: theme.Options{Dark: true, NoColor: true}, Refresh: time.Second})
	tm := teatest.NewTestModel(t, root, teatest.WithInitialTermSize(160, 48))
	waitForText(t, tm, "Vigil Demo")

	tm.Type(":")
	tm.Type("go to Policies")
	waitForText(t, tm, "go to Policies")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitForText(t, tm, "Sign-in with the loca")

	tm.Type("n")
	waitForText(t, tm, "New policy")
	tm.Type("Auditors may tag")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyTab})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyTab})
	tm.Type("activity.resource == 'USER' && activity.action ==")
	waitForText(t, tm, "^") // the half-typed condition does not compile: marked
	tm.Type(" 'CREATE'")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyTab})
	tm.Type("approvers.count() >= 2")
	tm.Send(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	waitForText(t, tm, `Create policy "Auditors may tag"?`, "Once submitted")
	pressYes(t, tm, `create_policy "Auditors may tag" submitted`, "CREATE_POLICY_V3")

	pending, err := bob.ListActivities(ctx, api.ListActivitiesOptions{Statuses: []string{api.StatusConsensusNeeded},
		Types: []string{api.TypeCreatePolicyV3}, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	var created *api.Activity
	for i, a := range pending {
		if p := a.Intent.CreatePolicyIntentV3; p != nil && p.PolicyName == "Auditors may tag" {
			created = &pending[i]
		}
	}
	if created == nil {
		t.Fatalf("no pending create_policy named by the form among %d", len(pending))
	}
	p := created.Intent.CreatePolicyIntentV3
	if p.Condition != "activity.resource == 'USER' && activity.action == 'CREATE'" || p.Consensus != "approvers.count() >= 2" || p.Effect != api.EffectAllow {
		t.Errorf("the form submitted %+v", p)
	}
	approved, err := bob.ApproveActivity(ctx, created.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	if approved.Status != api.StatusCompleted {
		t.Fatalf("after bob's approval the activity is %s, want COMPLETED", approved.Status)
	}

	// Whatever is printed from here on was printed after the policy existed:
	// the list may reload (on arrival, or on r) before the wait begins, and an
	// unchanged row is not printed again.
	after := &transcript{tm: tm}
	tm.Type(":")
	tm.Type("go to Policies")
	after.waitFor(t, "go to Policies")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	after.waitFor(t, "n new policy")
	tm.Type("r")
	// The row's condition, not only its name: the name is also in the toast of
	// the proposal, which may still be on screen before the list has reloaded.
	after.waitFor(t, "Auditors may tag", "activity.resource == 'USER'")
	tm.Type("G") // the newest policy is the last row
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitForText(t, tm, "approvers.count() >= 2", "Policy id")
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}
