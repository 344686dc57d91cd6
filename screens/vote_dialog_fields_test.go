package screens

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// A policy name of the longest kind, its quotes doubled once escaped, cannot
// push a deny-everything policy's effect, condition or consensus out of the
// vote dialog on an 80×24 window: they show with the whole name. Against the
// local service.
func TestEndToEndVoteDialogShowsEffectAndConditionPastALongName(t *testing.T) {
	d := servertest.StartDemo(t)
	name := `Routine: rename "ops" "approvers" "v2" "v3" "eu" "us" "ap" "qa" "dev" policy (ticket 4411)`
	name += strings.Repeat(" ", api.MaxNameLength-len(name)-1) + "."
	act, err := d.Client("carol").CreatePolicy(context.Background(), api.CreatePolicyParams{PolicyName: name,
		Effect: api.EffectDeny, Condition: "true", Consensus: "approvers.count() >= 1"})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", act, err)
	}
	// bob, whom no MFA policy of the demo binds: alice's would add its
	// warning, which is not what this test is about.
	bob := d.Client("bob")
	h := newHarnessWith(t, bob, bob, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	h.selectActivityID(act.ID)
	flat := approveDialogText(t, h)
	for _, want := range []string{"effect: DENY", "condition: true", "consensus: approvers.count() >= 1",
		`"Routine: rename \"ops\" \"approvers\"`, `(ticket 4411) .`} {
		if !strings.Contains(flat, want) {
			t.Errorf("the dialog lacks %q:\n%s", want, h.frame())
		}
	}
}

// An intent the dialog has no words of its own for is shown field by field,
// whole: a long fingerprint of a vote on a vote is not cut to the width of a
// summary line.
func TestVoteDialogShowsEveryFieldOfAnUnfamiliarIntent(t *testing.T) {
	fingerprint := "sha256:" + strings.Repeat("0123456789abcdef", 12) + "-end"
	act := pendingActivity("act-vote", "bob", time.Minute,
		api.Intent{ApproveActivityIntent: &api.ApproveActivityParams{Fingerprint: fingerprint}}, api.TypeApproveActivity)
	h := newHarness(t, &fakeClient{activities: []api.Activity{act}}, false, 0)
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	h.selectActivityID(act.ID)
	h.key("a")
	body, more := dialogBody(t, h.frame(), "Approve this activity?")
	if more != "" {
		t.Errorf("the dialog hides lines (%s):\n%s", more, h.frame())
	}
	if flat := strings.ReplaceAll(strings.Join(body, ""), "↩", ""); !strings.Contains(flat, "fingerprint: "+fingerprint) {
		t.Errorf("the dialog does not show the intent's fingerprint whole:\n%s", h.frame())
	}
}

// The vote dialog of an oauth activity says whose account it touches: the
// issuer and subject its token claims, marked unverified and escaped, and
// the member the organization links to that subject; never the token.
func TestVoteDialogNamesWhomAnOauthTokenSignsIn(t *testing.T) {
	enc := base64.RawURLEncoding.EncodeToString
	subject := "alice-sub\x1b]8;;evil\x07"
	token := enc([]byte(`{"alg":"ES256"}`)) + "." + enc([]byte(`{"iss":"https://idp.example","sub":"alice-sub\u001b]8;;evil\u0007","email":"alice@example.com"}`)) + "." + enc([]byte("sig"))
	yes := true
	act := pendingActivity("act-oauth", "operator", time.Minute, api.Intent{OauthIntent: &api.OauthParams{OidcToken: token,
		TargetPublicKey: "04" + strings.Repeat("ab", 64), APIKeyName: "operator's sign-in", InvalidateExisting: &yes}}, api.TypeOauth)
	users := []api.User{{UserID: "u-alice", UserName: "alice", OauthProviders: []api.OauthProvider{{Issuer: "https://idp.example", Subject: subject}}},
		{UserID: "u-operator", UserName: "operator"}}
	h := newHarness(t, &fakeClient{activities: []api.Activity{act}, users: users}, false, 0)
	h.send(tea.WindowSizeMsg{Width: 100, Height: 40})
	h.selectActivityID(act.ID)
	flat := approveDialogText(t, h)
	for _, want := range []string{api.UnverifiedClaimsLabel, `iss: "https://idp.example"`, "sub: " + api.Quote(subject),
		`email: "alice@example.com"`, `user: "alice" (u-alice)`} {
		if !strings.Contains(flat, want) {
			t.Errorf("the dialog lacks %q:\n%s", want, h.frame())
		}
	}
	if strings.Contains(h.frame(), "\x1b]8") || strings.Contains(flat, strings.Split(token, ".")[1]) {
		t.Errorf("the dialog draws the raw subject or the token:\n%s", h.frame())
	}
}

// approveDialogText opens the approve dialog of the selected activity and
// returns its text with runs of white space made one space (the dialog wraps
// long lines), failing the test if the dialog hides any line.
func approveDialogText(t *testing.T, h *harness) string {
	t.Helper()
	h.key("a")
	body, more := dialogBody(t, h.frame(), "Approve this activity?")
	if more != "" {
		t.Errorf("the dialog hides lines (%s):\n%s", more, h.frame())
	}
	// The marks at the rows' ends read as the text they stand for.
	text := strings.NewReplacer("↩ ", "", "␣", " ").Replace(strings.Join(body, " "))
	return strings.Join(strings.Fields(text), " ")
}

// An activity whose type and intent disagree (a create-policy intent in a
// read-only-session activity, as a compromised service could send it) does
// two things at once: the vote dialog warns first, predicts neither, and
// approving it needs the deliberate y.
func TestVoteDialogWarnsOfAnIntentNotOfItsType(t *testing.T) {
	act := intentNotOfItsType()
	h := newHarness(t, &fakeClient{activities: []api.Activity{act}}, false, 0)
	h.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	h.selectActivityID(act.ID)
	flat := approveDialogText(t, h)
	for _, want := range []string{"WARNING", api.TypeCreateReadOnlySession, "createPolicyIntentV3", "cannot tell"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the vote dialog lacks %q:\n%s", want, flat)
		}
	}
	if strings.Contains(flat, "it is allowed") {
		t.Errorf("the vote dialog predicts a decision from one of the two:\n%s", flat)
	}
}

// The activity's record says it too, under the intent's heading, before the
// intent reads like what the type promises.
func TestActivityDetailWarnsOfAnIntentNotOfItsType(t *testing.T) {
	act := intentNotOfItsType()
	h := newHarness(t, &fakeClient{activities: []api.Activity{act}}, false, 0)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	h.selectActivityID(act.ID)
	h.key("enter")
	frame := h.frame()
	if !strings.Contains(frame, "this intent is not of the activity's type") {
		t.Errorf("the record does not say its intent is not of its type:\n%s", frame)
	}
}

// intentNotOfItsType is a pending CREATE_READ_ONLY_SESSION activity whose
// intent is an allow-everything create_policy: what a proxy in front of the
// service could send.
func intentNotOfItsType() api.Activity {
	return pendingActivity("act-x", "bob", time.Minute,
		api.Intent{CreatePolicyIntentV3: &api.CreatePolicyParams{PolicyName: "allow all", Effect: api.EffectAllow,
			Condition: "true", Consensus: ""}}, api.TypeCreateReadOnlySession)
}
