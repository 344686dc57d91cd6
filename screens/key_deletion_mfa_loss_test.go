package screens

import (
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// bob's MFA policy pins his key that expired two days ago: no vote could
// meet it before, so deleting the key (routine cleanup) locks nothing out,
// and the confirm does not say it does.
func TestUsersDeleteOfAnExpiredPinnedKeyDoesNotWarnOfLockOut(t *testing.T) {
	users := governanceUsers()
	users[1].APIKeys = append([]api.APIKey{apiKey("k-bob-old", "bob old", "02cc03", testNow.Add(-72*time.Hour), "3600")}, users[1].APIKeys...)
	users[1].MfaPolicies = []api.MfaPolicy{{MfaPolicyID: "mfa-1", UserID: "u-bob", MfaPolicyName: "old key for all", Condition: "true",
		RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthAPIKey, ID: "k-bob-old"}}}}}}
	h, _ := usersHarnessWith(t, false, users)
	h.key("j") // bob
	h.key("enter")
	h.key("d") // "bob old", listed first
	out := h.frame()
	if !strings.Contains(out, "bob old") {
		t.Fatalf("no confirm of deleting bob's expired key:\n%s", out)
	}
	if strings.Contains(out, "MFA policy") {
		t.Errorf("deleting an expired key, whose pin no vote could meet already, is said to lock bob's policy out:\n%s", out)
	}
}

// bob's MFA policy asks for any API key, pinning none: deleting his only
// API key leaves every activity it covers waiting for a vote he can never
// cast, and the confirm says so first.
func TestUsersDeleteOfTheLastKeyAnUnpinnedMethodNeedsWarns(t *testing.T) {
	users := governanceUsers()
	users[1].MfaPolicies = []api.MfaPolicy{{MfaPolicyID: "mfa-1", UserID: "u-bob", MfaPolicyName: "any API key", Condition: "true",
		RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthAPIKey}}}}}}
	h, _ := usersHarnessWith(t, false, users)
	h.key("j") // bob
	h.key("enter")
	h.key("d") // "bob cli", his only key
	out := h.frame()
	if !strings.Contains(out, "bob cli") || !strings.Contains(out, `MFA policy "any API key"`) || !strings.Contains(out, "can never be cast") {
		t.Errorf("deleting bob's only API key, which his MFA policy's only method needs: the confirm does not say the policy can then never be met:\n%s", out)
	}
}
