package screens

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
)

func voteDialogText(t *testing.T, act api.Activity) string {
	t.Helper()
	h := newHarness(t, &fakeClient{activities: []api.Activity{act}}, false, 0)
	h.send(tea.WindowSizeMsg{Width: 140, Height: 60})
	h.selectActivityID(act.ID)
	return approveDialogText(t, h)
}

// A consensus (or condition) of only white space compiles to none
// (policy.checkOne: strings.TrimSpace(src) == ""): the policy applies to
// every activity and needs no approval. The dialog says so for "", but for
// "  " it draws an empty value.
func TestVoteDialogBlankConsensusIsShownAsNone(t *testing.T) {
	act := pendingActivity("act-blank", "bob", time.Minute, api.Intent{CreatePolicyIntentV3: &api.CreatePolicyParams{
		PolicyName: "routine", Effect: api.EffectAllow, Condition: "   ", Consensus: "   ", Notes: ""}}, api.TypeCreatePolicyV3)
	flat := voteDialogText(t, act)
	for _, want := range []string{"applies to every activity", "applies without any approval"} {
		if !strings.Contains(flat, want) {
			t.Errorf("a blank expression, which the service treats as none, is not said to be none (%q missing):\n%s", want, flat)
		}
	}
}

// The service stores an MFA policy's notes (insertMfaPolicy); the dialog never shows them.
func TestVoteDialogShowsMfaPolicyNotes(t *testing.T) {
	act := pendingActivity("act-mfa", "bob", time.Minute, api.Intent{CreateMfaPolicyIntent: &api.CreateMfaPolicyParams{
		UserID: "u-bob", MfaPolicyName: "p", Condition: "true", Order: 0, Notes: "NOTES-SENTINEL",
		RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthPasskey}}}}}}, api.TypeCreateMfaPolicy)
	if flat := voteDialogText(t, act); !strings.Contains(flat, "NOTES-SENTINEL") {
		t.Errorf("the MFA policy's notes, which the service stores, are not in the dialog:\n%s", flat)
	}
}

// The service stores a smart contract interface's notes and the interface
// itself; the dialog shows neither (only the size).
func TestVoteDialogShowsSmartContractNotes(t *testing.T) {
	act := pendingActivity("act-sci", "bob", time.Minute, api.Intent{CreateSmartContractInterfaceIntent: &api.CreateSmartContractInterfaceParams{
		SmartContractAddress: "0xabc", SmartContractInterface: `[{"name":"ABI-SENTINEL"}]`, Type: "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM",
		Label: "l", Notes: "NOTES-SENTINEL"}}, api.TypeCreateSmartContractInterface)
	flat := voteDialogText(t, act)
	for _, want := range []string{"NOTES-SENTINEL", "ABI-SENTINEL"} {
		if !strings.Contains(flat, want) {
			t.Errorf("%s, which the service stores, is not in the dialog:\n%s", want, flat)
		}
	}
}

// An oauth intent without apiKeyName makes a key named "Oauth - <time>"
// (executeOauth); the dialog says the new key is named "" — and an absent
// expirationSeconds reads "(default) s", not the 15 minutes the service gives.
func TestVoteDialogOauthDefaults(t *testing.T) {
	act := pendingActivity("act-oauth", "bob", time.Minute, api.Intent{OauthIntent: &api.OauthParams{
		OidcToken: "a.b.c", TargetPublicKey: "04" + strings.Repeat("ab", 64)}}, api.TypeOauth)
	flat := voteDialogText(t, act)
	if strings.Contains(flat, `new API key: ""`) {
		t.Errorf("the dialog says the new key is named \"\"; the service names it \"Oauth - <time>\":\n%s", flat)
	}
	if !strings.Contains(flat, "15 min") && !strings.Contains(flat, "900") {
		t.Errorf("the dialog does not say the key's lifetime (15 minutes by default):\n%s", flat)
	}
}

// An empty invitations list is accepted by the service; the dialog shows no
// line at all for the intent, not that it invites nobody.
func TestVoteDialogEmptyInvitations(t *testing.T) {
	act := pendingActivity("act-inv0", "bob", time.Minute, api.Intent{CreateInvitationsIntent: &api.CreateInvitationsParams{
		Invitations: []api.Invitation{}}}, api.TypeCreateInvitations)
	flat := voteDialogText(t, act)
	if !strings.Contains(flat, "(none)") && !strings.Contains(flat, "no one") && !strings.Contains(flat, "nobody") {
		t.Errorf("an intent inviting nobody shows nothing about its invitations:\n%s", flat)
	}
}
