package server

import (
	"context"
	"encoding/hex"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// passkeyOnBothCurves is a passkey whose compressed P-256 key is a
// secp256k1 point too (about half are): the same 33 bytes then name two
// keys, one per curve, whose private keys have nothing in common.
func passkeyOnBothCurves(t *testing.T) *keys.SoftAuthenticator {
	t.Helper()
	return firstOnBothCurves(t, func() (*keys.SoftAuthenticator, error) { return keys.NewSoftAuthenticator("") })
}

// p256KeyOnBothCurves is a P-256 key whose compressed public key is a
// secp256k1 point too, as passkeyOnBothCurves is a passkey.
func p256KeyOnBothCurves(t *testing.T) *keys.Key {
	t.Helper()
	return firstOnBothCurves(t, func() (*keys.Key, error) { return keys.Generate(keys.SchemeP256) })
}

// firstOnBothCurves is the first of up to 200 new P-256 keys whose
// compressed public key is a secp256k1 point too.
func firstOnBothCurves[K interface{ PublicKeyHex() string }](t *testing.T, newKey func() (K, error)) K {
	t.Helper()
	for range 200 {
		k, err := newKey()
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := hex.DecodeString(k.PublicKeyHex())
		if _, err := secp256k1.ParsePubKey(raw); err == nil {
			return k
		}
	}
	t.Fatal("no P-256 key in 200 is a secp256k1 point")
	var none K
	return none
}

// The bytes of z's P-256 passkey, registered by m as a secp256k1 API key
// before schema 20 (it takes no private key to register a public key), are
// another key: m cannot sign with z's private key, nor z with m's. The
// upgrade, which keeps one credential per key, must not take them for one
// key and remove z's passkey, the newer, leaving the root member without a
// credential.
func TestUpgradeKeepsAKeyOfAnotherCurveWithTheSameBytes(t *testing.T) {
	dir := t.TempDir()
	db := openSchema(t, dir, migrationUniqueCredentials-1)
	a := passkeyOnBothCurves(t)
	execStatements(t, db, []statement{
		{`INSERT INTO organizations(id, name, root_threshold, root_user_ids, created_ns) VALUES ('o', 'Old', 1, '["z"]', 1)`, nil},
		{`INSERT INTO users(id, org_id, name, email, seq, created_ns, updated_ns) VALUES ('m', 'o', 'm', '', 1, 1, 1), ('z', 'o', 'z', '', 2, 1, 1)`, nil},
		{`INSERT INTO api_keys(id, org_id, user_id, name, public_key, credential_type, created_ns, updated_ns) VALUES ('k-m', 'o', 'm', 'k1', ?, ?, 1, 1)`,
			[]any{a.PublicKeyHex(), api.CredentialAPIKeySecp256k1}},
		{`INSERT INTO authenticators(id, org_id, user_id, name, credential_id, public_key, created_ns, updated_ns) VALUES ('a-z', 'o', 'z', 'pk', ?, ?, 2, 2)`,
			[]any{a.CredentialID(), a.PublicKeyHex()}},
	})
	srv, logs := openUpgraded(t, dir, "open a schema-19 database holding one key's bytes as m's secp256k1 API key and z's P-256 passkey")
	ids := storedCredentialIDs(t, srv)
	if !ids["a-z"] || !ids["k-m"] {
		t.Fatalf("after the upgrade z's passkey a-z stored: %v, m's secp256k1 key k-m stored: %v; want both, keys of two curves:\n%s", ids["a-z"], ids["k-m"], logs.String())
	}
	h := httptest.NewServer(srv.Handler())
	t.Cleanup(h.Close)
	c, err := api.NewClient(h.URL, "o", a)
	if err != nil {
		t.Fatal(err)
	}
	if who, err := c.Whoami(context.Background()); err != nil || who.UserID != "z" {
		t.Errorf("z's passkey after the upgrade: %+v, %v", who, err)
	}
}

// Registering the bytes of a P-256 key as a secp256k1 API key takes no
// private key: a member who saw another's key (in a pending create_users,
// say) could register it first on the other curve. That is another key,
// so it neither blocks the P-256 key's registration nor stands in for it
// when the P-256 key stamps: its holder signs in as its own user.
func TestAKeyOfAnotherCurveWithTheSameBytesIsAnotherKey(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	victim := p256KeyOnBothCurves(t)
	if _, err := e.srv.CreateUsers(ctx, e.org.ID, []UserSpec{{Name: "mallory",
		APIKeys: []APIKeySpec{{Name: "k1", PublicKey: victim.PublicKeyHex(), CredentialType: api.CredentialAPIKeySecp256k1}}}}); err != nil {
		t.Fatal(err)
	}
	ids, err := e.srv.CreateUsers(ctx, e.org.ID, []UserSpec{{Name: "victor",
		APIKeys: []APIKeySpec{{Name: "p256", PublicKey: victim.PublicKeyHex(), CredentialType: api.CredentialAPIKeyP256}}}})
	if err != nil {
		t.Fatalf("victor's P-256 key refused because its bytes are mallory's secp256k1 key: %v", err)
	}
	who, err := e.client(victim).Whoami(ctx)
	if err != nil || who.UserID != ids[0] {
		t.Errorf("victor's P-256 key stamps as %+v, %v; want victor %s", who, err, ids[0])
	}
	// The same curve is still one key: refused, naming its holder.
	_, err = e.srv.CreateUsers(ctx, e.org.ID, []UserSpec{{Name: "twice",
		APIKeys: []APIKeySpec{{Name: "again", PublicKey: victim.PublicKeyHex(), CredentialType: api.CredentialAPIKeySecp256k1}}}})
	if err == nil || !strings.Contains(err.Error(), "mallory") {
		t.Errorf("a second secp256k1 key with mallory's bytes: %v; want refused naming mallory", err)
	}
}

// At schema 20, x's P-256 API key stored uncompressed and m's secp256k1 API
// key with its compressed bytes are two keys. Migration 21 stores x's key
// compressed: on a unique index without the curve the two collided and the
// whole upgrade rolled back, the service not starting. Both are kept, x's
// key now authenticates, and the index still refuses a second key of one
// curve with the same bytes.
func TestUpgradeStoresAKeyCompressedBesideItsBytesOnTheOtherCurve(t *testing.T) {
	dir := t.TempDir()
	db := openSchema(t, dir, migrationCanonicalAPIKeys-1)
	a := passkeyOnBothCurves(t)
	execStatements(t, db, []statement{
		{`INSERT INTO organizations(id, name, root_threshold, root_user_ids, created_ns) VALUES ('o', 'Old', 1, '["x"]', 1)`, nil},
		{`INSERT INTO users(id, org_id, name, email, seq, created_ns, updated_ns) VALUES ('x', 'o', 'x', '', 1, 1, 1), ('m', 'o', 'm', '', 2, 1, 1)`, nil},
		{`INSERT INTO api_keys(id, org_id, user_id, name, public_key, credential_type, created_ns, updated_ns) VALUES
			('k-x', 'o', 'x', 'p256', ?, ?, 1, 1), ('k-m', 'o', 'm', 'k1', ?, ?, 2, 2)`,
			[]any{uncompressedP256(t, a.PublicKeyHex()), api.CredentialAPIKeyP256, a.PublicKeyHex(), api.CredentialAPIKeySecp256k1}},
	})
	srv, logs := openUpgraded(t, dir, "open a schema-20 database holding x's uncompressed P-256 key and m's secp256k1 key of the same bytes")
	ids := storedCredentialIDs(t, srv)
	if !ids["k-x"] || !ids["k-m"] {
		t.Fatalf("after the upgrade k-x stored: %v, k-m stored: %v; want both:\n%s", ids["k-x"], ids["k-m"], logs.String())
	}
	h := httptest.NewServer(srv.Handler())
	t.Cleanup(h.Close)
	asKey, err := keys.ParsePrivateHex(keys.SchemeP256, a.PrivateKeyHex())
	if err != nil {
		t.Fatal(err)
	}
	c, err := api.NewClient(h.URL, "o", asKey)
	if err != nil {
		t.Fatal(err)
	}
	if who, err := c.Whoami(context.Background()); err != nil || who.UserID != "x" {
		t.Errorf("x's P-256 key after the upgrade: %+v, %v", who, err)
	}
	_, err = srv.db.write.ExecContext(context.Background(), `INSERT INTO api_keys(id, org_id, user_id, name, public_key, credential_type, created_ns, updated_ns)
		VALUES ('k-m2', 'o', 'x', 'again', ?, ?, 3, 3)`, a.PublicKeyHex(), api.CredentialAPIKeySecp256k1)
	if err == nil || !strings.Contains(err.Error(), "UNIQUE") {
		t.Errorf("a second secp256k1 key with m's bytes stored beside it: %v; want the unique index to refuse it", err)
	}
}
