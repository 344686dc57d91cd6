package screens

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// lookalikeCond compares with a type spelt with a Cyrillic Е (U+0415): it
// never matches, so a "never delete API keys" policy built on it protects
// nothing, while bare it reads as the real type.
const lookalikeCond = "activity.type == 'ACTIVITY_TYPE_D\u0415LETE_API_KEYS'"

// flagsLookalike reports whether text shows the look-alike as such: the
// escape api.Quote writes for it, on a line saying what it is.
func flagsLookalike(text string) bool {
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "look-alike") && strings.Contains(l, `D\u0415LETE`) {
			return true
		}
	}
	return false
}

func TestVoteDialogFlagsLookalikeInPolicyExpressions(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    api.CreatePolicyParams
	}{
		{"condition", api.CreatePolicyParams{Effect: api.EffectDeny, Condition: lookalikeCond}},
		{"consensus", api.CreatePolicyParams{Effect: api.EffectAllow, Consensus: "approvers.any(u, u.name == 'аlice')"}},
		{"time", api.CreatePolicyParams{Effect: api.EffectDeny, Condition: "true", Time: "now.weekday == 'Ѕunday'"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.p.PolicyName = "never delete api keys"
			act := pendingActivity("act-pol", "bob", time.Minute, api.Intent{CreatePolicyIntentV3: &tc.p}, api.TypeCreatePolicyV3)
			h := newHarness(t, &fakeClient{activities: []api.Activity{act}}, false, 0)
			h.send(tea.WindowSizeMsg{Width: 160, Height: 50})
			h.selectActivityID(act.ID)
			flat := approveDialogText(t, h)
			if !strings.Contains(flat, "look-alike characters in the "+tc.name) || !strings.Contains(flat, `\u04`) {
				t.Errorf("the %s's look-alike letter is drawn as is, unflagged:\n%s", tc.name, flat)
			}
		})
	}
}

// Against the local service: it accepts the condition, and the dialog of a
// member voting on it flags the look-alike, as the CLI's prompt escapes it.
func TestEndToEndVoteDialogFlagsLookalikeCondition(t *testing.T) {
	d := servertest.StartDemo(t)
	act, err := d.Client("carol").CreatePolicy(context.Background(), api.CreatePolicyParams{PolicyName: "never delete api keys",
		Effect: api.EffectDeny, Condition: lookalikeCond})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", act, err)
	}
	bob := d.Client("bob")
	h := newHarnessWith(t, bob, bob, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 50})
	h.selectActivityID(act.ID)
	if flat := approveDialogText(t, h); !flagsLookalike(flat) {
		t.Errorf("the condition's look-alike letter is drawn as is, unflagged:\n%s", flat)
	}
}

func TestVoteDialogFlagsLookalikeInMfaCondition(t *testing.T) {
	act := pendingActivity("act-mfa", "bob", time.Minute,
		api.Intent{CreateMfaPolicyIntent: &api.CreateMfaPolicyParams{UserID: "u-bob", MfaPolicyName: "passkey for deletions",
			Condition: lookalikeCond, RequiredAuthenticationMethods: []api.AuthenticationStep{}}}, api.TypeCreateMfaPolicy)
	h := newHarness(t, &fakeClient{activities: []api.Activity{act}}, false, 0)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 50})
	h.selectActivityID(act.ID)
	if flat := approveDialogText(t, h); !flagsLookalike(flat) {
		t.Errorf("the MFA condition's look-alike letter is drawn as is, unflagged:\n%s", flat)
	}
}

// The dialog draws a condition on its lines, as the details do: a comment
// on the first does not seem to swallow the code on the next.
func TestVoteDialogKeepsConditionLines(t *testing.T) {
	p := api.CreatePolicyParams{PolicyName: "deny user changes", Effect: api.EffectDeny,
		Condition: "activity.resource == 'USER' // only users\n|| true"}
	act := pendingActivity("act-pol", "bob", time.Minute, api.Intent{CreatePolicyIntentV3: &p}, api.TypeCreatePolicyV3)
	h := newHarness(t, &fakeClient{activities: []api.Activity{act}}, false, 0)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 50})
	h.selectActivityID(act.ID)
	h.key("a")
	body, _ := dialogBody(t, h.frame(), "Approve this activity?")
	text := strings.Join(body, "\n")
	if l := commentSwallows(text, "|| true"); l != "" || !strings.Contains(text, "|| true") {
		t.Errorf("the dialog draws the condition's second line on the comment's line (%q):\n%s", l, text)
	}
}

// The policy's detail flags the look-alike too: it is where a member reads
// what is in force.
func TestPolicyDetailFlagsLookalikeCondition(t *testing.T) {
	pol := api.Policy{PolicyID: "pol-x", PolicyName: "Never delete API keys", Effect: api.EffectDeny, Condition: lookalikeCond,
		CreatedAt: api.NewTime(testNow.Add(-time.Hour)), UpdatedAt: api.NewTime(testNow.Add(-time.Hour))}
	h := newHarness(t, &fakeClient{activities: sampleActivities(), policies: []api.Policy{pol}}, false, 0)
	h.send(tea.WindowSizeMsg{Width: 200, Height: 60})
	h.toPolicies()
	h.key("enter")
	if out := h.plainFrame(); !flagsLookalike(out) {
		t.Errorf("the policy's detail draws the look-alike unflagged:\n%s", out)
	}
}

// And the MFA policy's detail.
func TestMfaDetailFlagsLookalikeCondition(t *testing.T) {
	pols := alicePolicies()
	for i := range pols["u-alice"] {
		pols["u-alice"][i].Condition = lookalikeCond
	}
	h := memberConsole(t, &fakeClient{users: governanceUsers(), mfaPolicies: pols})
	h.send(tea.WindowSizeMsg{Width: 200, Height: 60})
	h.gotoScreen("MFA policies")
	h.key("enter")
	if out := h.frame(); !flagsLookalike(out) {
		t.Errorf("the MFA policy's detail draws the look-alike unflagged:\n%s", out)
	}
}
