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

// An API key an earlier vigil stored as it was registered — uncompressed, or
// in upper-case hex — is looked up in the form stamps carry after the
// upgrade: its user authenticates, where every request of theirs was refused
// UNKNOWN_KEY with the key plainly registered.
func TestUpgradeStoresAPIKeysInTheFormStampsCarry(t *testing.T) {
	dir := t.TempDir()
	db := openSchema(t, dir, migrationCanonicalAPIKeys-1)
	p256, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	k1, err := keys.Generate(keys.SchemeSecp256k1)
	if err != nil {
		t.Fatal(err)
	}
	ed, err := keys.Generate(keys.SchemeEd25519)
	if err != nil {
		t.Fatal(err)
	}
	k1Raw, err := hex.DecodeString(k1.PublicKeyHex())
	if err != nil {
		t.Fatal(err)
	}
	k1Pub, err := secp256k1.ParsePubKey(k1Raw)
	if err != nil {
		t.Fatal(err)
	}
	execStatements(t, db, []statement{
		{`INSERT INTO organizations(id, name, root_threshold, root_user_ids, created_ns) VALUES ('o', 'Old', 1, '["x"]', 1)`, nil},
		{`INSERT INTO users(id, org_id, name, email, seq, created_ns, updated_ns) VALUES ('x', 'o', 'x', '', 1, 1, 1), ('y', 'o', 'y', '', 2, 1, 1), ('z', 'o', 'z', '', 3, 1, 1)`, nil},
		{`INSERT INTO api_keys(id, org_id, user_id, name, public_key, credential_type, created_ns, updated_ns) VALUES
			('k-x', 'o', 'x', 'p256', ?, ?, 1, 1),
			('k-y', 'o', 'y', 'k1', ?, ?, 2, 2),
			('k-z', 'o', 'z', 'ed', ?, ?, 3, 3)`,
			[]any{uncompressedP256(t, p256.PublicKeyHex()), api.CredentialAPIKeyP256,
				hex.EncodeToString(k1Pub.SerializeUncompressed()), api.CredentialAPIKeySecp256k1,
				strings.ToUpper(ed.PublicKeyHex()), api.CredentialAPIKeyEd25519}},
	})
	srv, _ := openUpgraded(t, dir, "open a database holding API keys stored as registered")
	h := httptest.NewServer(srv.Handler())
	t.Cleanup(h.Close)
	for user, k := range map[string]*keys.Key{"x": p256, "y": k1, "z": ed} {
		c, err := api.NewClient(h.URL, "o", k)
		if err != nil {
			t.Fatal(err)
		}
		who, err := c.Whoami(context.Background())
		if err != nil {
			t.Errorf("user %s, whose %s API key was stored as registered, is refused after the upgrade: %v", user, k.Scheme(), err)
			continue
		}
		if who.UserID != user {
			t.Errorf("the key of user %s authenticates as %q", user, who.UserID)
		}
	}
}
