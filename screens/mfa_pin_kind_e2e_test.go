package screens

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/server/servertest"
)

// A stored MFA policy reads each pin as the credential it is: a SESSION
// method pinned to a session key says "session key" (never "profile"), and
// an API_KEY method pinned to a passkey, which no API-key vote can come
// from, is flagged in the detail as a pin that can never be met, as is one
// pinned to an id that is none of the user's credentials (the user votes with
// their own only). The local service refuses a pin to anything but the
// user's own credentials, so that one is a session key pinned while it
// existed and deleted since, as a lost key may be; it refuses a pin of the
// wrong type too, so the API_KEY is stored as a PASSKEY pin and served, by a
// service that took it (the official one may), as it was sent there.
func TestEndToEndMfaDetailNamesPinsAndFlagsOnesNeverMet(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	const name = "pinned wrongly"
	session, _ := keys.Generate(keys.SchemeP256)
	passkey, _ := keys.NewSoftAuthenticator("")
	ids, err := d.Server.CreateUsers(ctx, d.Info.OrganizationID, []server.UserSpec{{Name: "pinny", Email: "pinny@example.com",
		APIKeys: []server.APIKeySpec{{Name: "session", PublicKey: session.PublicKeyHex(), CredentialType: api.CredentialReadWriteSessionP256}},
		Authenticators: []server.AuthenticatorSpec{{Name: "YubiKey pinny", CredentialID: strings.Repeat("c1", 32),
			PublicKey: passkey.PublicKeyHex(), Transports: []string{"AUTHENTICATOR_TRANSPORT_USB"}}}}})
	if err != nil {
		t.Fatal(err)
	}
	user := ids[0]
	var passkeyID, passkeyName, sessionKeyID string
	users, err := d.Client("alice").ListUsers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range users {
		if u.UserID == user {
			passkeyID, passkeyName = u.Authenticators[0].AuthenticatorID, u.Authenticators[0].AuthenticatorName
			sessionKeyID = u.APIKeys[0].APIKeyID
		}
	}
	pinned := func(second string) []api.AuthenticationStep {
		return []api.AuthenticationStep{
			{Any: []api.AuthenticationMethod{{Type: api.AuthSession, ID: sessionKeyID}}},
			{Any: []api.AuthenticationMethod{{Type: second, ID: passkeyID}}}}
	}
	act, err := d.Client("alice").CreateMfaPolicy(ctx, api.CreateMfaPolicyParams{UserID: user, MfaPolicyName: name, Condition: "true",
		RequiredAuthenticationMethods: pinned(api.AuthPasskey)})
	if err != nil {
		t.Fatal(err)
	}
	if act = approvedByBob(t, d, act); act.Status != api.StatusCompleted {
		t.Fatalf("create_mfa_policy is %s", act.Status)
	}
	del, err := d.Client("alice").DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: user, APIKeyIDs: []string{sessionKeyID}})
	if err != nil {
		t.Fatal(err)
	}
	if del = approvedByBob(t, d, del); del.Status != api.StatusCompleted {
		t.Fatalf("delete_api_keys is %s", del.Status)
	}

	other := d.Rewriting(servertest.Serving(t, pinned(api.AuthPasskey), pinned(api.AuthAPIKey)))
	h := demoHarnessVia(t, d.ClientAt(other, "alice"), ProofSettings{Apps: d.Info.EnclaveApps})
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

// approvedByBob is act once bob has approved it, if it waited for votes.
func approvedByBob(t *testing.T, d *servertest.Demo, act *api.Activity) *api.Activity {
	t.Helper()
	if act.Status != api.StatusConsensusNeeded {
		return act
	}
	act, err := d.Client("bob").ApproveActivity(context.Background(), act.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	return act
}
