package server_test

import (
	"context"
	"crypto/elliptic"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/server/servertest"
)

// uncompressedP256 is the 65-byte SEC1 form of a compressed P-256 key hex.
func uncompressedP256(t *testing.T, compressedHex string) string {
	t.Helper()
	raw, err := hex.DecodeString(compressedHex)
	if err != nil {
		t.Fatal(err)
	}
	x, y := elliptic.UnmarshalCompressed(elliptic.P256(), raw)
	if x == nil {
		t.Fatalf("%s is not a compressed P-256 key", compressedHex)
	}
	u := make([]byte, 65)
	u[0] = 4
	x.FillBytes(u[1:33])
	y.FillBytes(u[33:])
	return hex.EncodeToString(u)
}

// The credential id of an X-Stamp-WebAuthn is not signed: it only picks the
// registered passkey. One passkey key pair registered under two credential
// ids, for two users, would let its one holder vote as both and meet a
// 2-of-3 root quorum alone: the registration is refused, whether the key is
// written the same way twice or once compressed and once uncompressed.
func TestOnePasskeyKeyCannotBeTwoUsers(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	a, err := keys.NewSoftAuthenticator("")
	if err != nil {
		t.Fatal(err)
	}
	b, err := keys.NewSoftAuthenticatorFromKey("", a.PrivateKeyHex())
	if err != nil {
		t.Fatal(err)
	}
	other, _ := keys.Generate(keys.SchemeP256)
	for name, second := range map[string]string{
		"same form":    b.PublicKeyHex(),
		"uncompressed": uncompressedP256(t, b.PublicKeyHex()),
		"upper case":   strings.ToUpper(b.PublicKeyHex()),
	} {
		t.Run(name, func(t *testing.T) {
			o, err := d.Server.CreateOrganization(ctx, "passkey alias org", 2, []server.UserSpec{
				{Name: "x", Root: true, Authenticators: []server.AuthenticatorSpec{{Name: "pk", CredentialID: a.CredentialID(), PublicKey: a.PublicKeyHex()}}},
				{Name: "y", Root: true, Authenticators: []server.AuthenticatorSpec{{Name: "pk", CredentialID: b.CredentialID(), PublicKey: second}}},
				{Name: "z", Root: true, APIKeys: []server.APIKeySpec{{PublicKey: other.PublicKeyHex()}}},
			})
			if err == nil {
				cx, _ := api.NewClient(d.URL, o.ID, a)
				cy, _ := api.NewClient(d.URL, o.ID, b)
				act, err := cx.CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "p", Effect: api.EffectAllow, Condition: "true", Notes: "n"})
				if err != nil {
					t.Fatalf("registered twice, and x proposes: %v", err)
				}
				if after, err := cy.ApproveActivity(ctx, act.Fingerprint); err == nil && after.Status == api.StatusCompleted {
					t.Fatalf("one passkey private key met the 2-of-3 root quorum alone: %s COMPLETED", after.ID)
				}
				t.Fatal("one passkey key was registered for users x and y")
			}
			if !strings.Contains(err.Error(), `already a passkey of user "x"`) {
				t.Errorf("the refusal does not say the key is already x's passkey: %v", err)
			}
		})
	}
}

// One key is one credential: a passkey's key cannot also be an API key of
// the organization (the same private key would stamp X-Stamp as one user and
// X-Stamp-WebAuthn as another), in either order, nor can one credential id
// name two passkeys.
func TestPasskeyAndAPIKeyCannotShareAKey(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	a, err := keys.NewSoftAuthenticator("")
	if err != nil {
		t.Fatal(err)
	}
	o, err := d.Server.CreateOrganization(ctx, "shared key org", 1, []server.UserSpec{
		{Name: "x", Root: true, Authenticators: []server.AuthenticatorSpec{{Name: "pk", CredentialID: a.CredentialID(), PublicKey: a.PublicKeyHex()}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.Server.CreateUser(ctx, o.ID, server.UserSpec{Name: "y", APIKeys: []server.APIKeySpec{{PublicKey: uncompressedP256(t, a.PublicKeyHex())}}})
	if err == nil || !strings.Contains(err.Error(), `already a passkey of user "x"`) {
		t.Errorf("an API key with x's passkey key: %v, want refused naming x's passkey", err)
	}
	k, _ := keys.Generate(keys.SchemeP256)
	if _, err := d.Server.CreateUser(ctx, o.ID, server.UserSpec{Name: "w", APIKeys: []server.APIKeySpec{{PublicKey: k.PublicKeyHex()}}}); err != nil {
		t.Fatal(err)
	}
	_, err = d.Server.CreateUser(ctx, o.ID, server.UserSpec{Name: "v", Authenticators: []server.AuthenticatorSpec{{Name: "pk", CredentialID: "djE", PublicKey: k.PublicKeyHex()}}})
	if err == nil || !strings.Contains(err.Error(), `already an API key of user "w"`) {
		t.Errorf("a passkey with w's API key: %v, want refused naming w's API key", err)
	}
	fresh, _ := keys.NewSoftAuthenticator(a.CredentialID())
	_, err = d.Server.CreateUser(ctx, o.ID, server.UserSpec{Name: "u", Authenticators: []server.AuthenticatorSpec{{Name: "pk", CredentialID: a.CredentialID(), PublicKey: fresh.PublicKeyHex()}}})
	if err == nil || !strings.Contains(err.Error(), `already a passkey of user "x"`) {
		t.Errorf("a second passkey with x's credential id: %v, want refused", err)
	}
}
