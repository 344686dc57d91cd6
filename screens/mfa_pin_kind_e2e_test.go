package screens

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// A stored MFA policy reads each pin as the credential it is: a SESSION
// method pinned to a session key says "session key" (never "profile"), and
// an API_KEY method pinned to a passkey, which no API-key vote can come
// from, is flagged in the detail as a pin that can never be met, as is one
// pinned to an id that is none of the user's credentials (the user votes with
// their own only). Against the local service, which stores such pins as sent.
func TestEndToEndMfaDetailNamesPinsAndFlagsOnesNeverMet(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	const name = "pinned wrongly"
	user := d.AddUserWithKeys("pinny", 1, 1)
	var passkeyID, passkeyName string
	users, err := d.Client("alice").ListUsers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range users {
		if u.UserID == user {
			passkeyID, passkeyName = u.Authenticators[0].AuthenticatorID, u.Authenticators[0].AuthenticatorName
		}
	}
	const sessionKeyID = "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0000" // not a credential of the user
	act, err := d.Client("alice").CreateMfaPolicy(ctx, api.CreateMfaPolicyParams{UserID: user, MfaPolicyName: name, Condition: "true",
		RequiredAuthenticationMethods: []api.AuthenticationStep{
			{Any: []api.AuthenticationMethod{{Type: api.AuthSession, ID: sessionKeyID}}},
			{Any: []api.AuthenticationMethod{{Type: api.AuthAPIKey, ID: passkeyID}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if act.Status == api.StatusConsensusNeeded {
		if act, err = d.Client("bob").ApproveActivity(ctx, act.Fingerprint); err != nil {
			t.Fatal(err)
		}
	}
	if act.Status != api.StatusCompleted {
		t.Fatalf("create_mfa_policy is %s", act.Status)
	}

	h := demoHarness(t, d, nil)
	h.gotoScreen("MFA policies")
	for range len(users) + 1 {
		if strings.Contains(h.frame(), "MFA policies of pinny") {
			break
		}
		h.key("U")
	}
	if !strings.Contains(h.frame(), name) {
		t.Fatalf("pinny's policy is not listed:\n%s", h.frame())
	}
	h.key("enter")
	out := h.frame()
	if strings.Contains(out, "profile") || !strings.Contains(out, "SESSION (session key "+sessionKeyID+")") {
		t.Errorf("the SESSION pin is not named as the session key it is:\n%s", out)
	}
	if !strings.Contains(out, `API_KEY (authenticator "`+passkeyName+`" `+passkeyID+`)`) {
		t.Errorf("the API_KEY pin is not named as the passkey it is:\n%s", out)
	}
	if !strings.Contains(out, "can never be met") {
		t.Errorf("the API_KEY pinned to a passkey is not flagged as never met:\n%s", out)
	}
	if !strings.Contains(out, "SESSION can never be met: it is pinned to "+sessionKeyID+", which is not a credential of this user") {
		t.Errorf("the SESSION pinned to an id that is none of pinny's credentials is not flagged as never met:\n%s", out)
	}
	if strings.Count(out, "can never be met") != 2 {
		t.Errorf("both pins, and only they, can never be met:\n%s", out)
	}
}
