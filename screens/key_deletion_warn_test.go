package screens

import (
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// carol (root) keeps only an OAuth key valid 15 more minutes once her
// lasting key goes: the confirm says she then signs nothing from that time.
func TestUsersDeleteWarnsWhenARootMemberIsLeftOnlyExpiringKeys(t *testing.T) {
	users := governanceUsers()
	oauth := apiKey("k-carol-oauth", "carol oauth", "02dd04", testNow.Add(-5*time.Minute), "1200")
	oauth.Credential.Type = api.CredentialOauthKeyP256
	users[2].APIKeys = []api.APIKey{apiKey("k-carol", "carol cli", "02dd03", testNow.Add(-time.Hour), ""), oauth}
	h, _ := usersHarnessWith(t, false, users)
	h.key("j")
	h.key("j") // carol
	h.key("enter")
	h.key("d") // her lasting key, listed first
	out := h.frame()
	if !strings.Contains(out, "carol cli") || !strings.Contains(out, "would be left only with keys that") {
		t.Errorf("deleting carol's lasting key leaves her a key that expires soon, and the confirm does not say so:\n%s", out)
	}
}

// bob's MFA policy pins his CLI key, its only method: deleting that key
// leaves every activity the policy covers waiting for a vote that can never
// be cast, and the confirm says so first.
func TestUsersDeleteWarnsOfAKeyAnMfaPolicyPins(t *testing.T) {
	users := governanceUsers()
	users[1].APIKeys = append(users[1].APIKeys, apiKey("k-bob-2", "bob spare", "02cc03", testNow.Add(-time.Hour), ""))
	users[1].MfaPolicies = []api.MfaPolicy{{MfaPolicyID: "mfa-1", UserID: "u-bob", MfaPolicyName: "cli key for all", Condition: "true",
		RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthAPIKey, ID: "k-bob"}}}}}}
	h, _ := usersHarnessWith(t, false, users)
	h.key("j") // bob
	h.key("enter")
	h.key("d") // "bob cli", listed first
	out := h.frame()
	if !strings.Contains(out, "bob cli") || !strings.Contains(out, `MFA policy "cli key for all" pins`) || !strings.Contains(out, "can never be cast") {
		t.Errorf("deleting the key bob's MFA policy pins: the confirm does not say the policy can then never be met:\n%s", out)
	}
}
