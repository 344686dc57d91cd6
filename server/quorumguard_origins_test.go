package server

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// The quorum guard counts a root member's passkey as a credential
// that signs even when FEATURE_NAME_WEBAUTHN_ORIGINS allows no passkey at all
// (a value with no usable origin: "allows none, the setting fails closed").
// The deletion of dave's API key completes, and the root quorum is left with
// one member able to sign under a threshold of two: nothing that needs the
// quorum (not even setting the origins back) can complete again.
func TestQuorumGuardDoesNotCountPasskeysOnceOriginsAreSet(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	dave, daveKey, auth := addRootDave(ctx, t, e)
	// The root quorum sets an origins value with no usable origin (sent raw;
	// the service takes any string for it).
	f, err := e.clients["alice"].SetOrganizationFeature(ctxT(t), api.SetOrganizationFeatureParams{Name: api.FeatureWebauthnOrigins, Value: ""})
	if err != nil {
		t.Fatal(err)
	}
	if f, err = e.clients["bob"].ApproveActivity(ctxT(t), f.Fingerprint); err != nil || f.Status != api.StatusCompleted {
		t.Fatalf("set origins: %v %+v", err, f)
	}
	if _, err := e.client(auth).Whoami(ctxT(t)); err == nil {
		t.Fatal("dave's passkey still authenticates; the test needs it refused by the origins")
	}
	for _, name := range []string{"carol", "bob"} {
		if act := e.deleteKeys(e.clients[name], e.clients["alice"], e.user(name), e.apiKeyID(e.user(name))); act.Status != api.StatusCompleted {
			t.Fatalf("deleting %s's key: %s %+v", name, act.Status, act.Failure)
		}
	}
	// Now only alice and dave can sign (2 of 4). dave's API key is his only
	// credential that the service accepts.
	act := e.deleteKeys(e.client(daveKey), e.clients["alice"], dave, e.apiKeyID(dave))
	if act.Status == api.StatusCompleted {
		// Proof of the lockout: nothing needing the quorum completes.
		g, err := e.clients["alice"].SetOrganizationFeature(ctxT(t), api.SetOrganizationFeatureParams{Name: api.FeatureWebauthnOrigins, Value: keys.SoftAuthenticatorOrigin})
		if err != nil {
			t.Fatal(err)
		}
		_, verr := e.client(auth).ApproveActivity(ctxT(t), g.Fingerprint)
		t.Fatalf("the deletion of dave's last usable credential COMPLETED (the guard counted his passkey, which the origins forbid); "+
			"the quorum is locked out: alice's fix waits %s, dave's passkey vote: %v", g.Status, verr)
	}
	if act.Status != api.StatusFailed || act.Failure == nil || !strings.Contains(act.Failure.Message, "dave") {
		t.Fatalf("the deletion should fail naming dave: %s %+v", act.Status, act.Failure)
	}
}

// The other order: dave deletes his API key while his passkey
// works (the guard rightly counts it), then the root quorum sets an origins
// list the console's form and `vigil feature set` accept
// ("https://app.example.com") that does not hold dave's passkey's origin.
// Nothing guards set_organization_feature: it completes, and the quorum (2 of
// 4, alice the only member left able to sign) is locked out for good.
func TestSettingOriginsThatStrandThePasskeyOnlyQuorumFails(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	dave, daveKey, auth := addRootDave(ctx, t, e)
	for _, name := range []string{"carol", "bob"} {
		if act := e.deleteKeys(e.clients[name], e.clients["alice"], e.user(name), e.apiKeyID(e.user(name))); act.Status != api.StatusCompleted {
			t.Fatalf("deleting %s's key: %s %+v", name, act.Status, act.Failure)
		}
	}
	if act := e.deleteKeys(e.client(daveKey), e.clients["alice"], dave, e.apiKeyID(dave)); act.Status != api.StatusCompleted {
		t.Fatalf("dave deleting his API key while his passkey signs: %s %+v", act.Status, act.Failure)
	}
	value := "https://app.example.com"
	if err := api.CheckFeatureValue(api.FeatureWebauthnOrigins, value); err != nil {
		t.Fatal(err)
	}
	f, err := e.clients["alice"].SetOrganizationFeature(ctxT(t), api.SetOrganizationFeatureParams{Name: api.FeatureWebauthnOrigins, Value: value})
	if err != nil {
		t.Fatal(err)
	}
	if f, err = e.client(auth).ApproveActivity(ctxT(t), f.Fingerprint); err != nil {
		t.Fatal(err)
	}
	if f.Status == api.StatusCompleted {
		g, err := e.clients["alice"].SetOrganizationFeature(ctxT(t), api.SetOrganizationFeatureParams{Name: api.FeatureWebauthnOrigins, Value: keys.SoftAuthenticatorOrigin})
		if err != nil {
			t.Fatal(err)
		}
		_, verr := e.client(auth).ApproveActivity(ctxT(t), g.Fingerprint)
		t.Fatalf("set WEBAUTHN_ORIGINS=%q COMPLETED with dave's passkey (his only credential) signing elsewhere; the fix waits %s forever, dave's vote: %v", value, g.Status, verr)
	}
	if f.Status != api.StatusFailed || f.Failure == nil || !strings.Contains(f.Failure.Message, "dave") || !strings.Contains(f.Failure.Message, api.FeatureWebauthnOrigins) {
		t.Fatalf("setting the origins should fail naming dave and the feature: %s %+v", f.Status, f.Failure)
	}
	// Nothing changed: dave's passkey still signs.
	if _, err := e.client(auth).Whoami(ctxT(t)); err != nil {
		t.Fatalf("dave's passkey no longer authenticates after the refused change: %v", err)
	}
}

// addRootDave adds dave to e's root quorum with one API key and one passkey.
func addRootDave(ctx context.Context, t *testing.T, e *testEnv) (dave string, daveKey *keys.Key, auth *keys.SoftAuthenticator) {
	t.Helper()
	auth, err := keys.NewSoftAuthenticator("ZGF2ZS1wYXNza2V5")
	if err != nil {
		t.Fatal(err)
	}
	daveKey = e.newKey("dave")
	dave, err = e.srv.CreateUser(ctx, e.org.ID, UserSpec{Name: "dave", Root: true,
		APIKeys:        []APIKeySpec{{Name: "dave key", PublicKey: daveKey.PublicKeyHex()}},
		Authenticators: []AuthenticatorSpec{{Name: "yubikey", CredentialID: auth.CredentialID(), PublicKey: auth.PublicKeyHex()}}})
	if err != nil {
		t.Fatal(err)
	}
	return dave, daveKey, auth
}
