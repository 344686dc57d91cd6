package screens

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// The vote dialog of a pending create_mfa_policy reads its steps as the MFA
// screen does: method names without their prefix, a pin named as the
// credential it is, and a pin no vote of the user can meet (an API_KEY
// pinned to alice's passkey) flagged: the approval is the last point at
// which a root member can stop such a policy.
func TestVoteDialogReadsMfaStepsAsTheMfaScreen(t *testing.T) {
	c := &Common{}
	c.Org.Users = governanceUsers()
	in := api.Intent{CreateMfaPolicyIntent: &api.CreateMfaPolicyParams{UserID: "u-alice", MfaPolicyName: "key", Condition: "true",
		RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthAPIKey, ID: "au-1"}}}}}}
	lines, warn := knownIntentLines(c, in, nil)
	text := strings.Join(lines, "\n")
	if strings.Contains(text, "AUTHENTICATION_TYPE_") {
		t.Errorf("the steps keep the type's prefix:\n%s", text)
	}
	if !strings.Contains(text, `API_KEY (authenticator "yubikey" au-1) [never met]`) {
		t.Errorf("the pin is not named as alice's passkey and flagged never met:\n%s", text)
	}
	flagged := false
	for i, l := range lines {
		flagged = flagged || (warn[i] && strings.Contains(l, "can never be met"))
	}
	if !flagged {
		t.Errorf("no warning line says the pin can never be met:\n%s", text)
	}
}
