package screens

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// An approval cast with a key deleted since is one whose credential the
// console cannot name, where the service recorded it with the vote: when a
// policy reads which credential approved, the activity's detail and the vote
// dialog say the console's prediction is uncertain, and why. Against the
// local service, whose decision then differs from the prediction.
func TestEndToEndPredictionWithADeletedKeyIsUncertain(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	alice, bob := d.Client("alice"), d.Client("bob")
	operator := d.Info.Members[3]
	if operator.Name != "operator" {
		t.Fatalf("demo member 3 is %q, want operator", operator.Name)
	}
	users, err := alice.ListUsers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var keyID string
	for _, u := range users {
		for _, k := range u.APIKeys {
			if u.UserID == operator.UserID && k.APIKeyName == "operator (vigil demo)" {
				keyID = k.APIKeyID
			}
		}
	}
	if keyID == "" {
		t.Fatal("the operator's demo key is not listed")
	}
	approved := func(act *api.Activity, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		if done, err := bob.ApproveActivity(ctx, act.Fingerprint); err != nil || done.Status != api.StatusCompleted {
			t.Fatalf("bob's approval of %s: %v %+v", act.Type, err, done)
		}
	}
	approved(alice.CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "Tags with the operator's demo key and one more",
		Effect: api.EffectAllow, Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'",
		Consensus: "credentials.any(c, c.id == '" + keyID + "') && approvers.size() >= 2", Notes: "n"}))
	act, err := d.Client("operator").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "doubt", UserIDs: []string{operator.UserID}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("operator's proposal: %v %+v", err, act)
	}
	approved(alice.DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: operator.UserID, APIKeyIDs: []string{keyID}}))

	carol := d.Client("carol")
	h := newHarnessWith(t, carol, carol, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 200, Height: 60})
	h.selectActivityID(act.ID)
	h.key("enter")
	const why = `uncertain: operator approved with a key deleted since, and policy "Tags with the operator's demo key and one more"`
	if out := h.detailText(); !strings.Contains(out, why) {
		t.Errorf("the detail does not say the prediction is uncertain:\n%s", out)
	}
	h.key("a")
	body, _ := dialogBody(t, h.frame(), "Approve this activity?")
	dialog := strings.Join(strings.Fields(strings.Join(body, " ")), " ")
	if !strings.Contains(dialog, strings.Join(strings.Fields(why), " ")) || !strings.Contains(dialog, "the service still knows that key") {
		t.Errorf("the vote dialog does not say the prediction is uncertain:\n%s", h.frame())
	}
	predicted := strings.Contains(dialog, "if you approve: it is allowed")
	h.key("y")
	if !h.toasted("approved CREATE_USER_TAG") {
		t.Fatalf("carol's approval failed:\n%s", h.frame())
	}
	got, err := alice.GetActivity(ctx, act.ID)
	if err != nil {
		t.Fatal(err)
	}
	// The service knew the credential: the policy's consensus is met.
	if got.Status != api.StatusCompleted {
		t.Fatalf("after carol's approval: %s, want COMPLETED", got.Status)
	}
	if predicted {
		t.Error("the console predicted the outcome it cannot know; the test no longer shows the doubt")
	}
}
