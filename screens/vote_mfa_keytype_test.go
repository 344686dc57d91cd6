package screens

import (
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// A console that signs with an OAuth key (vigil login oauth) proves
// AUTHENTICATION_TYPE_OAUTH with its vote, not API_KEY: an MFA policy that
// asks for an API_KEY is NOT met by that vote (server satisfies(): types must
// be equal), so the approve dialog must warn; and one asking for OAUTH is met,
// so it must not.
func TestVoterMfaWarningJudgesOwnKeyByItsType(t *testing.T) {
	const pub = "02aa"
	mk := func(step api.AuthenticationMethod) *Common {
		me := api.User{UserID: "u-me", UserName: "me",
			APIKeys: []api.APIKey{{APIKeyID: "k-oauth", APIKeyName: "login",
				Credential: api.Credential{PublicKey: pub, Type: api.CredentialOauthKeyP256}}},
			MfaPolicies: []api.MfaPolicy{{MfaPolicyID: "m1", MfaPolicyName: "always", Condition: "true", Order: 1,
				RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{step}}}}}}
		return &Common{OwnPublicKey: pub, Org: Org{Loaded: true, UserID: "u-me", Users: []api.User{me}}}
	}
	act := pendingActivity("a1", "bob", time.Minute,
		api.Intent{CreateUserTagIntent: &api.CreateUserTagParams{UserTagName: "x", UserIDs: []string{}}}, api.TypeCreateUserTag)
	if w, _ := voterMfaWarning(mk(api.AuthenticationMethod{Type: api.AuthAPIKey}), &act, testNow); w == "" {
		t.Errorf("policy asks for API_KEY; this console's vote (OAuth key) proves OAUTH and cannot meet it, yet no warning")
	}
	if w, _ := voterMfaWarning(mk(api.AuthenticationMethod{Type: api.AuthOauth}), &act, testNow); w != "" {
		t.Errorf("policy asks for OAUTH, which this console's OAuth-key vote meets, yet it warns: %s", w)
	}
}
