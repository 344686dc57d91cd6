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

// removalWarning is the warning line of logs that names credential id, or
// "" when none does.
func removalWarning(logs, id string) string {
	for _, line := range strings.Split(logs, "\n") {
		if strings.Contains(line, "level=WARN") && strings.Contains(line, " id="+id+" ") {
			return line
		}
	}
	return ""
}

// The schema-20 vigil compared a new key with the stored ones as stored, so
// with x's API key stored uncompressed by an earlier vigil (x refused
// UNKNOWN_KEY) it registered the same key, compressed, as z's passkey. Were
// x's key rewritten as it stands, one private key would be x's API key and
// z's passkey and meet a 2-of-2 root quorum alone. The upgrade keeps z's
// passkey, the credential that authenticated, removes x's API key, and says
// so naming both and what to do.
func TestUpgradeKeepsOneVoterForAKeyRegisteredAgainAsAPasskey(t *testing.T) {
	dir, a := schemaWithRemovableKey(t)
	srv, logs := openUpgraded(t, dir, "open a schema-20 database holding one key as x's uncompressed API key and z's passkey")
	h := httptest.NewServer(srv.Handler())
	t.Cleanup(h.Close)
	asKey, err := keys.ParsePrivateHex(keys.SchemeP256, a.PrivateKeyHex())
	if err != nil {
		t.Fatal(err)
	}
	cx, err := api.NewClient(h.URL, "o", asKey)
	if err != nil {
		t.Fatal(err)
	}
	cz, err := api.NewClient(h.URL, "o", a)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if who, err := cz.Whoami(ctx); err != nil || who.UserID != "z" {
		t.Fatalf("z's passkey, which authenticated at schema 20, after the upgrade: %+v, %v", who, err)
	}
	act, err := cz.CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "p", Effect: api.EffectAllow, Condition: "true", Notes: "n"})
	if err != nil {
		t.Fatalf("z proposes: %v", err)
	}
	if after, err := cx.ApproveActivity(ctx, act.Fingerprint); err == nil && after.Status == api.StatusCompleted {
		t.Fatalf("one private key (z's passkey, then x's API key) met the 2-of-2 root quorum alone: %s COMPLETED", after.ID)
	}
	line := removalWarning(logs.String(), "k-x")
	for _, want := range []string{"migration 21", "organization=o ", "user=x ", "credential=\"API key\"", "kept_id=a-z ", "kept_user=z ", "form stamps carry", "new key pair"} {
		if !strings.Contains(line, want) {
			t.Errorf("the removal of x's API key k-x is not logged saying %q:\n%s", want, logs.String())
		}
	}
}

// The schema-20 vigil also registered such a key again as an API key (of
// another user, or of the same one): rewritten as it stands, the old row
// collided with it on UNIQUE(org_id, public_key), the whole upgrade rolled
// back and the service did not start. Of each pair the key stored in the
// form stamps carry is kept, though it is the newer, and the other is
// removed and logged; P-256 stored uncompressed and Ed25519 in upper case.
func TestUpgradeKeepsTheCanonicalOfAKeyRegisteredAgainAsAnAPIKey(t *testing.T) {
	dir := t.TempDir()
	db := openSchema(t, dir, migrationCanonicalAPIKeys-1)
	p256, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	ed, err := keys.Generate(keys.SchemeEd25519)
	if err != nil {
		t.Fatal(err)
	}
	execStatements(t, db, []statement{
		{`INSERT INTO organizations(id, name, root_threshold, root_user_ids, created_ns) VALUES ('o', 'Old', 1, '["x"]', 1)`, nil},
		{`INSERT INTO users(id, org_id, name, email, seq, created_ns, updated_ns) VALUES ('x', 'o', 'x', '', 1, 1, 1), ('y', 'o', 'y', '', 2, 1, 1)`, nil},
		{`INSERT INTO api_keys(id, org_id, user_id, name, public_key, credential_type, created_ns, updated_ns) VALUES
			('k-x', 'o', 'x', 'old', ?, ?, 1, 1),
			('k-y', 'o', 'y', 'new', ?, ?, 2, 2),
			('k-x-ed', 'o', 'x', 'old-ed', ?, ?, 3, 3),
			('k-x-ed2', 'o', 'x', 'new-ed', ?, ?, 4, 4)`,
			[]any{uncompressedP256(t, p256.PublicKeyHex()), api.CredentialAPIKeyP256, p256.PublicKeyHex(), api.CredentialAPIKeyP256,
				strings.ToUpper(ed.PublicKeyHex()), api.CredentialAPIKeyEd25519, ed.PublicKeyHex(), api.CredentialAPIKeyEd25519}},
	})
	srv, logs := openUpgraded(t, dir, "open a schema-20 database holding keys stored in two forms as two API keys")
	h := httptest.NewServer(srv.Handler())
	t.Cleanup(h.Close)
	for user, k := range map[string]*keys.Key{"y": p256, "x": ed} {
		c, err := api.NewClient(h.URL, "o", k)
		if err != nil {
			t.Fatal(err)
		}
		if who, err := c.Whoami(context.Background()); err != nil || who.UserID != user {
			t.Errorf("the %s key, registered canonical for user %s at schema 20, after the upgrade: %+v, %v", k.Scheme(), user, who, err)
		}
	}
	ids := storedCredentialIDs(t, srv)
	for _, r := range []struct{ removed, user, kept string }{{"k-x", "x", "k-y"}, {"k-x-ed", "x", "k-x-ed2"}} {
		if ids[r.removed] || !ids[r.kept] {
			t.Errorf("after the upgrade %s stored: %v; %s stored: %v (want only %s, stored in the form stamps carry)", r.removed, ids[r.removed], r.kept, ids[r.kept], r.kept)
		}
		line := removalWarning(logs.String(), r.removed)
		for _, want := range []string{"migration 21", "organization=o ", "user=" + r.user + " ", "kept_id=" + r.kept + " ", "form stamps carry", "new key pair"} {
			if !strings.Contains(line, want) {
				t.Errorf("the removal of %s is not logged saying %q:\n%s", r.removed, want, logs.String())
			}
		}
	}
}

// Before schema 21 a stamp's key (lowercase hex, compressed) was looked up
// as stored, so of x's API key stored uncompressed and root member y's
// registered later, compressed, only y's ever authenticated. Upgraded from
// schema 19 (migration 20 then 21) as from schema 20 (21 only), the key
// stays y's: kept as the oldest by migration 20 and rewritten by 21, x's
// row would make y's private key sign as x and leave y, the only root
// member, with no credential.
func TestUpgradeFromAnyOldSchemaKeepsAKeyWithTheUserItAuthenticated(t *testing.T) {
	for _, from := range []int{migrationUniqueCredentials - 1, migrationCanonicalAPIKeys - 1} {
		dir := t.TempDir()
		db := openSchema(t, dir, from)
		k, err := keys.Generate(keys.SchemeP256)
		if err != nil {
			t.Fatal(err)
		}
		execStatements(t, db, []statement{
			{`INSERT INTO organizations(id, name, root_threshold, root_user_ids, created_ns) VALUES ('o', 'Old', 1, '["y"]', 1)`, nil},
			{`INSERT INTO users(id, org_id, name, email, seq, created_ns, updated_ns) VALUES ('x', 'o', 'x', '', 1, 1, 1), ('y', 'o', 'y', '', 2, 1, 1)`, nil},
			{`INSERT INTO api_keys(id, org_id, user_id, name, public_key, credential_type, created_ns, updated_ns) VALUES
				('k-x', 'o', 'x', 'old', ?, ?, 1, 1),
				('k-y', 'o', 'y', 'used', ?, ?, 2, 2)`,
				[]any{uncompressedP256(t, k.PublicKeyHex()), api.CredentialAPIKeyP256, k.PublicKeyHex(), api.CredentialAPIKeyP256}},
		})
		srv, logs := openUpgraded(t, dir, "open a database holding one key as x's uncompressed API key and y's compressed one")
		h := httptest.NewServer(srv.Handler())
		c, err := api.NewClient(h.URL, "o", k)
		if err != nil {
			t.Fatal(err)
		}
		who, err := c.Whoami(context.Background())
		h.Close()
		if err != nil || who.UserID != "y" {
			t.Errorf("upgraded from schema %d: the key root member y signed with now authenticates as %+v (%v); want y\nlog:\n%s", from, who, err, logs.String())
		}
		line := removalWarning(logs.String(), "k-x")
		for _, want := range []string{"user=x ", "kept_id=k-y ", "kept_user=y ", "form stamps carry", "new key pair"} {
			if !strings.Contains(line, want) {
				t.Errorf("upgraded from schema %d: the removal of x's never-used row k-x is not logged saying %q:\n%s", from, want, logs.String())
			}
		}
		if line := removalWarning(logs.String(), "k-y"); line != "" {
			t.Errorf("upgraded from schema %d: y's credential is logged as removed:\n%s", from, line)
		}
	}
}

// Without a key stored twice the upgrade removes nothing: keys in other
// forms are rewritten, one key in two organizations stays in both, a key
// that is no point of its curve stays as it was, and no removal is logged.
func TestUpgradeWithoutSharedKeysRemovesNoCredential(t *testing.T) {
	dir := t.TempDir()
	db := openSchema(t, dir, migrationCanonicalAPIKeys-1)
	shared, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	a, err := keys.NewSoftAuthenticator("")
	if err != nil {
		t.Fatal(err)
	}
	const offCurve = "02" + "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
	execStatements(t, db, []statement{
		{`INSERT INTO organizations(id, name, root_threshold, root_user_ids, created_ns) VALUES ('o', 'Old', 1, '["x"]', 1), ('p', 'Other', 1, '["w"]', 1)`, nil},
		{`INSERT INTO users(id, org_id, name, email, seq, created_ns, updated_ns) VALUES ('x', 'o', 'x', '', 1, 1, 1), ('y', 'o', 'y', '', 2, 1, 1), ('w', 'p', 'w', '', 1, 1, 1)`, nil},
		{`INSERT INTO api_keys(id, org_id, user_id, name, public_key, credential_type, created_ns, updated_ns) VALUES
			('k-x', 'o', 'x', 'old', ?, ?, 1, 1),
			('k-w', 'p', 'w', 'new', ?, ?, 2, 2),
			('k-bad', 'o', 'x', 'bad', ?, ?, 3, 3)`,
			[]any{uncompressedP256(t, shared.PublicKeyHex()), api.CredentialAPIKeyP256, shared.PublicKeyHex(), api.CredentialAPIKeyP256, offCurve, api.CredentialAPIKeyP256}},
		{`INSERT INTO authenticators(id, org_id, user_id, name, credential_id, public_key, created_ns, updated_ns) VALUES ('a-y', 'o', 'y', 'pk', ?, ?, 4, 4)`,
			[]any{a.CredentialID(), a.PublicKeyHex()}},
	})
	srv, logs := openUpgraded(t, dir, "open a schema-20 database with no key stored twice")
	want := map[string]string{"k-x": shared.PublicKeyHex(), "k-w": shared.PublicKeyHex(), "k-bad": offCurve, "a-y": a.PublicKeyHex()}
	got := map[string]string{}
	rows, err := srv.db.read.QueryContext(context.Background(), `SELECT id, public_key FROM api_keys UNION ALL SELECT id, public_key FROM authenticators`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id, pub string
		if err := rows.Scan(&id, &pub); err != nil {
			t.Fatal(err)
		}
		got[id] = pub
	}
	rows.Close()
	if len(got) != len(want) {
		t.Errorf("after the upgrade the credentials are %v, want %v", got, want)
	}
	for id, pub := range want {
		if got[id] != pub {
			t.Errorf("credential %s after the upgrade: key %q, want %q", id, got[id], pub)
		}
	}
	if strings.Contains(logs.String(), "removed a credential") {
		t.Errorf("an upgrade with no key stored twice logs a removal:\n%s", logs.String())
	}
}
