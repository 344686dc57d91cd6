package api

import (
	"strings"
	"testing"
)

// A value of a fixed list (an effect, an MFA method type, an access type, a
// contract type, a feature name, a provider) that is not in its list shows
// quoted and marked unknown, never bare as if known: a broken or hostile
// service's "ALLOW" must not read as EFFECT_ALLOW in the prompt a root member
// reads before approving. A value in the list shows bare, whole.
func TestIntentLinesMarkAFixedListsUnknownValue(t *testing.T) {
	lines := func(typ, s string) []string {
		step := []AuthenticationStep{{Any: []AuthenticationMethod{{Type: s}}}}
		return map[string][]string{
			"effect": IntentLines(intentOf(t, TypeCreatePolicyV3, &CreatePolicyParams{PolicyName: "p", Effect: s, Condition: "true"})),
			"type (MFA method)": IntentLines(intentOf(t, TypeCreateMfaPolicy, &CreateMfaPolicyParams{
				UserID: "u1", MfaPolicyName: "m", Condition: "true", RequiredAuthenticationMethods: step})),
			"accessType": IntentLines(intentOf(t, TypeCreateInvitations, &CreateInvitationsParams{Invitations: []Invitation{{
				ReceiverUserName: "b", ReceiverUserEmail: "b@example.com", AccessType: s, SenderUserID: "u1"}}})),
			"type (contract)": IntentLines(intentOf(t, TypeCreateSmartContractInterface, &CreateSmartContractInterfaceParams{
				SmartContractAddress: "0xabc", SmartContractInterface: "[]", Type: s, Label: "l"})),
			"name": IntentLines(intentOf(t, TypeSetOrganizationFeature, &SetOrganizationFeatureParams{Name: s, Value: "v"})),
			"provider": IntentLines(intentOf(t, TypeUpdateOauth2Credential, &UpdateOauth2CredentialParams{
				Oauth2CredentialID: "c1", Provider: s, ClientID: "id", EncryptedClientSecret: "x"})),
		}[typ]
	}
	fields := []struct {
		field, label, known string
		unknown             []string
	}{
		{"effect", "effect:", "EFFECT_ALLOW", []string{"ALLOW", "DENY", "EFFECT_ALLOW2", "EFFECT_\u0410LLOW", "effect_allow"}},
		{"type (MFA method)", "type:", "AUTHENTICATION_TYPE_PASSKEY", []string{"PASSKEY", "AUTHENTICATION_TYPE_FACE"}},
		{"accessType", "accessType:", "ACCESS_TYPE_WEB", []string{"WEB", "ACCESS_TYPE_ROOT"}},
		{"type (contract)", "type:", "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM", []string{"ETHEREUM", "SMART_CONTRACT_INTERFACE_TYPE_BITCOIN"}},
		{"name", "name:", "FEATURE_NAME_WEBHOOK", []string{"WEBHOOK", "FEATURE_NAME_EVERYTHING"}},
		{"provider", "provider:", "OAUTH2_PROVIDER_X", []string{"X", "OAUTH2_PROVIDER_GOOGLE"}},
	}
	for _, f := range fields {
		if got := valueOn(t, lines(f.field, f.known), f.label); got != f.known {
			t.Errorf("%s %s shows as %q; want it bare", f.field, f.known, got)
		}
		for _, v := range f.unknown {
			got := valueOn(t, lines(f.field, v), f.label)
			if !strings.HasPrefix(got, Quote(v)+" (unknown ") {
				t.Errorf("%s %q shows as %q; want it quoted and marked unknown", f.field, v, got)
			}
		}
	}
	if got := valueOn(t, lines("effect", "ALLOW"), "effect:"); got != EffectText("ALLOW") {
		t.Errorf("effect ALLOW shows as %q; the console's WHAT line shows %q", got, EffectText("ALLOW"))
	}
}

// valueOn is the value of the one line whose label (after any indent) is label.
func valueOn(t *testing.T, lines []string, label string) string {
	t.Helper()
	for _, l := range lines {
		if rest, ok := strings.CutPrefix(strings.TrimLeft(l, " "), label); ok {
			return strings.TrimLeft(rest, " ")
		}
	}
	t.Fatalf("no line %q in:\n%s", label, strings.Join(lines, "\n"))
	return ""
}
