package server_test

import (
	"context"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/server/servertest"
)

// An API key registered in its uncompressed form is the key its stamps
// carry compressed: it authenticates, where it used to be stored as given
// and never match a stamp, locking its user out with nothing said.
func TestUncompressedAPIKeyAuthenticates(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	p256, _ := keys.Generate(keys.SchemeP256)
	k1, _ := keys.Generate(keys.SchemeSecp256k1)
	raw, _ := hex.DecodeString(k1.PublicKeyHex())
	pub, err := secp256k1.ParsePubKey(raw)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, typ, registered string
		key                   *keys.Key
	}{
		{"P-256", api.CredentialAPIKeyP256, uncompressedP256(t, p256.PublicKeyHex()), p256},
		{"secp256k1", api.CredentialAPIKeySecp256k1, hex.EncodeToString(pub.SerializeUncompressed()), k1},
	} {
		t.Run(c.name, func(t *testing.T) {
			o, err := d.Server.CreateOrganization(ctx, "uncompressed "+c.name, 1, []server.UserSpec{
				{Name: "x", Root: true, APIKeys: []server.APIKeySpec{{PublicKey: c.registered, CredentialType: c.typ}}}})
			if err != nil {
				t.Fatalf("register the uncompressed %s key: %v", c.name, err)
			}
			cl, err := api.NewClient(d.URL, o.ID, c.key)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := cl.ListPolicies(ctx); err != nil {
				t.Fatalf("a request stamped by the key registered uncompressed: %v", err)
			}
		})
	}
}

// An API key whose type does not fit its key is refused at registration,
// saying what is wrong: a passkey's type (a policy would see an X-Stamp key
// as a passkey), or a key that is no point of the type's curve.
func TestAPIKeyTypeMustFitTheKey(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	p256, _ := keys.Generate(keys.SchemeP256)
	ed, _ := keys.Generate(keys.SchemeEd25519)
	for name, c := range map[string]struct {
		spec server.APIKeySpec
		want string
	}{
		"passkey type":        {server.APIKeySpec{PublicKey: p256.PublicKeyHex(), CredentialType: api.CredentialWebAuthnAuthenticator}, "is a passkey's"},
		"Ed25519 as P-256":    {server.APIKeySpec{PublicKey: ed.PublicKeyHex()}, "P-256 public key is 33 bytes"},
		"P-256 as Ed25519":    {server.APIKeySpec{PublicKey: p256.PublicKeyHex(), CredentialType: api.CredentialAPIKeyEd25519}, "an Ed25519 public key is 32 bytes"},
		"not hex":             {server.APIKeySpec{PublicKey: "02zz"}, "is not hex"},
		"off the P-256 curve": {server.APIKeySpec{PublicKey: "04" + strings.Repeat("11", 64)}, "not a point on P-256"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := d.Server.CreateUser(ctx, d.Info.OrganizationID, server.UserSpec{Name: "misfit " + name, APIKeys: []server.APIKeySpec{c.spec}})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("register %+v: %v, want refused with %q", c.spec, err, c.want)
			}
		})
	}
}
