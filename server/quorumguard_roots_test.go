package server

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// setOrigins has the root quorum (alice and bob) set
// FEATURE_NAME_WEBAUTHN_ORIGINS to value.
func setOrigins(t *testing.T, e *testEnv, value string) {
	t.Helper()
	f, err := e.clients["alice"].SetOrganizationFeature(ctxT(t), api.SetOrganizationFeatureParams{Name: api.FeatureWebauthnOrigins, Value: value})
	if err != nil {
		t.Fatal(err)
	}
	if f, err = e.clients["bob"].ApproveActivity(ctxT(t), f.Fingerprint); err != nil || f.Status != api.StatusCompleted {
		t.Fatalf("set origins: %v %+v", err, f)
	}
}

// Once the origins are set the guard counts no passkey, so a user who holds
// only passkeys could never vote for the root quorum: adding them to it is
// refused, saying why and what to do, and the quorum stays as it was.
func TestPasskeyOnlyUserCannotJoinTheRootQuorumWhileOriginsAreSet(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	setOrigins(t, e, keys.SoftAuthenticatorOrigin)
	auth, err := keys.NewSoftAuthenticator("ZGF2ZS1wYXNza2V5")
	if err != nil {
		t.Fatal(err)
	}
	passkey := []AuthenticatorSpec{{Name: "yubikey", CredentialID: auth.CredentialID(), PublicKey: auth.PublicKeyHex()}}
	_, err = e.srv.CreateUser(ctx, e.org.ID, UserSpec{Name: "dave", Root: true, Authenticators: passkey})
	if err == nil {
		t.Fatal("a passkey-only user joined the root quorum while WEBAUTHN_ORIGINS is set: the guard counts them as unable to sign")
	}
	for _, want := range []string{"dave", "passkeys", api.FeatureWebauthnOrigins, "API key first", "outside the root quorum"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal %q does not say %q", err, want)
		}
	}
	cfg, err := e.clients["alice"].GetOrganizationConfigs(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Quorum.UserIDs) != 3 {
		t.Fatalf("root quorum after the refusal: %v, want alice, bob and carol only", cfg.Quorum.UserIDs)
	}
	// What the refusal says to do works: with an API key dave may join.
	daveKey := e.newKey("dave")
	if _, err := e.srv.CreateUser(ctx, e.org.ID, UserSpec{Name: "dave", Root: true, Authenticators: passkey,
		APIKeys: []APIKeySpec{{Name: "dave key", PublicKey: daveKey.PublicKeyHex()}}}); err != nil {
		t.Fatalf("dave with an API key and a passkey: %v", err)
	}
}

// An organization created with the origins set (the demo sets them in the
// transaction that creates it) may not count a passkey-only member towards
// its threshold: a 2-of-2 quorum with one of them could never act.
func TestNewOrganizationsThresholdCountsOnlyMembersWhoCanSign(t *testing.T) {
	e := newEnv(t)
	auth, err := keys.NewSoftAuthenticator("ZXJpbi1wYXNza2V5")
	if err != nil {
		t.Fatal(err)
	}
	k := e.newKey("root-a")
	users := []UserSpec{
		{Name: "root-a", Root: true, APIKeys: []APIKeySpec{{Name: "k", PublicKey: k.PublicKeyHex()}}},
		{Name: "erin", Root: true, Authenticators: []AuthenticatorSpec{{Name: "laptop", CredentialID: auth.CredentialID(), PublicKey: auth.PublicKeyHex()}}},
	}
	origins := func(tx *txn, o *Org) error {
		_, err := tx.ExecContext(context.Background(), `INSERT INTO features(org_id, name, value) VALUES (?, ?, ?)`, o.ID, api.FeatureWebauthnOrigins, keys.SoftAuthenticatorOrigin)
		return err
	}
	_, err = e.srv.createOrganization(context.Background(), "Origins Org", 2, users, origins)
	if err == nil || !strings.Contains(err.Error(), "erin") || !strings.Contains(err.Error(), api.FeatureWebauthnOrigins) {
		t.Fatalf("2-of-2 root quorum with passkey-only erin and the origins set: %v, want a refusal naming erin and the feature", err)
	}
	// Without the origins erin's passkey signs, and the same organization is made.
	if _, err := e.srv.createOrganization(context.Background(), "Origins Org", 2, users, nil); err != nil {
		t.Fatalf("the same organization without origins: %v", err)
	}
}
