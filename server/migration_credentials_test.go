package server

import (
	"context"
	"crypto/elliptic"
	"database/sql"
	"encoding/hex"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/keys"
)

// uncompressedP256 is a compressed P-256 key's uncompressed form, as an old
// database may hold it.
func uncompressedP256(t *testing.T, compressed string) string {
	t.Helper()
	raw, err := hex.DecodeString(compressed)
	if err != nil {
		t.Fatal(err)
	}
	x, y := elliptic.UnmarshalCompressed(elliptic.P256(), raw)
	if x == nil {
		t.Fatalf("%s is not a compressed P-256 key", compressed)
	}
	u := make([]byte, 65)
	u[0] = 4
	x.FillBytes(u[1:33])
	y.FillBytes(u[33:])
	return hex.EncodeToString(u)
}

// storedCredentialIDs are the ids of the API keys and authenticators srv
// stores, of every organization.
func storedCredentialIDs(t *testing.T, srv *Server) map[string]bool {
	t.Helper()
	ids := map[string]bool{}
	rows, err := srv.db.read.QueryContext(context.Background(), `SELECT id FROM api_keys UNION ALL SELECT id FROM authenticators`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids[id] = true
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return ids
}

// A database stored before registration refused it may hold one key as two
// credentials of an organization: user x's API key and user y's passkey, or
// two API keys (one stored uncompressed). Its one holder votes as two users
// and meets a two-member quorum alone. After the upgrade one credential of
// each key is kept: the one that authenticated, else the oldest. A stamp's
// key is compressed and was looked up as stored, so z's old API key, stored
// uncompressed, never authenticated and x's later compressed one did; of
// keys stored alike, the oldest. Each other one is removed and logged with
// its user and what to do, other organizations are untouched, and the key
// cannot be registered again.
func TestMigrationKeepsOneCredentialPerKey(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, DatabaseFile)+"?_pragma=foreign_keys(ON)&_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	if err := migrateUpTo(ctx, db, migrationUniqueCredentials-1); err != nil {
		t.Fatal(err)
	}
	apiThenPasskey, _ := keys.NewSoftAuthenticator("")
	passkeyThenAPI, _ := keys.NewSoftAuthenticator("")
	twoForms, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	lone, err := keys.Generate(keys.SchemeEd25519)
	if err != nil {
		t.Fatal(err)
	}
	const p256 = "CREDENTIAL_TYPE_API_KEY_P256"
	execStatements(t, db, []statement{
		{`INSERT INTO organizations(id, name, root_threshold, root_user_ids, created_ns) VALUES ('o', 'Old', 2, '["x","y","z"]', 1), ('p', 'Other', 1, '["w"]', 1)`, nil},
		{`INSERT INTO users(id, org_id, name, email, seq, created_ns, updated_ns) VALUES ('x', 'o', 'x', '', 1, 1, 1), ('y', 'o', 'y', '', 2, 1, 1), ('z', 'o', 'z', '', 3, 1, 1), ('w', 'p', 'w', '', 1, 1, 1)`, nil},
		{`INSERT INTO api_keys(id, org_id, user_id, name, public_key, credential_type, created_ns, updated_ns) VALUES
			('k-x', 'o', 'x', 'ci', ?, ?, 1, 1),
			('k-z-old', 'o', 'z', 'old', ?, ?, 3, 3),
			('k-x-new', 'o', 'x', 'new', ?, ?, 4, 4),
			('k-z', 'o', 'z', 'ci', ?, ?, 6, 6),
			('k-z-ed', 'o', 'z', 'ed', ?, 'CREDENTIAL_TYPE_API_KEY_ED25519', 7, 7),
			('k-w', 'p', 'w', 'ci', ?, ?, 8, 8)`,
			[]any{apiThenPasskey.PublicKeyHex(), p256, uncompressedP256(t, twoForms.PublicKeyHex()), p256, twoForms.PublicKeyHex(), p256,
				passkeyThenAPI.PublicKeyHex(), p256, lone.PublicKeyHex(), apiThenPasskey.PublicKeyHex(), p256}},
		{`INSERT INTO authenticators(id, org_id, user_id, name, credential_id, public_key, created_ns, updated_ns) VALUES
			('a-y', 'o', 'y', 'pk', 'cred-1', ?, 2, 2),
			('a-y2', 'o', 'y', 'pk2', 'cred-2', ?, 5, 5)`,
			[]any{apiThenPasskey.PublicKeyHex(), passkeyThenAPI.PublicKeyHex()}},
	})
	srv, logs := openUpgraded(t, dir, "open a database with one key as two credentials")
	got := storedCredentialIDs(t, srv)
	for _, id := range []string{"k-x", "k-x-new", "a-y2", "k-z-ed", "k-w"} {
		if !got[id] {
			t.Errorf("credential %s, the one of its key in its organization that authenticated (or the only one), was removed by the upgrade", id)
		}
	}
	s := logs.String()
	for _, r := range []struct{ id, user, kept string }{{"a-y", "y", "k-x"}, {"k-z-old", "z", "k-x-new"}, {"k-z", "z", "a-y2"}} {
		if got[r.id] {
			t.Errorf("credential %s is still there after the upgrade, with the key of %s: its holder votes as two users", r.id, r.kept)
		}
		found := false
		for _, line := range strings.Split(s, "\n") {
			if strings.Contains(line, "level=WARN") && strings.Contains(line, " id="+r.id+" ") && strings.Contains(line, " user="+r.user+" ") &&
				strings.Contains(line, "kept_id="+r.kept+" ") && strings.Contains(line, "new key pair") {
				found = true
			}
		}
		if !found {
			t.Errorf("the removal of %s (user %s, key of %s) is not logged with its user, the credential kept and what to do:\n%s", r.id, r.user, r.kept, s)
		}
	}
	if _, err := srv.CreateUser(ctx, "o", UserSpec{Name: "v", Authenticators: []AuthenticatorSpec{{Name: "pk", CredentialID: "cred-9", PublicKey: apiThenPasskey.PublicKeyHex()}}}); err == nil {
		t.Error("x's API key was registered again as a passkey after the upgrade")
	}
}

// A removal that leaves a user with no API key or passkey is said so, and
// for a root member what that asks of the operator: the user cannot sign in
// to register a new key pair, and the root quorum may be out of reach.
func TestMigrationSaysWhenARootMemberIsLeftWithoutCredentials(t *testing.T) {
	dir := t.TempDir()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, DatabaseFile)+"?_pragma=foreign_keys(ON)&_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	if err := migrateUpTo(context.Background(), db, migrationUniqueCredentials-1); err != nil {
		t.Fatal(err)
	}
	shared, _ := keys.NewSoftAuthenticator("")
	execStatements(t, db, []statement{
		{`INSERT INTO organizations(id, name, root_threshold, root_user_ids, created_ns) VALUES ('o', 'Old', 2, '["x","y"]', 1)`, nil},
		{`INSERT INTO users(id, org_id, name, email, seq, created_ns, updated_ns) VALUES ('x', 'o', 'x', '', 1, 1, 1), ('y', 'o', 'y', '', 2, 1, 1), ('n', 'o', 'n', '', 3, 1, 1)`, nil},
		{`INSERT INTO api_keys(id, org_id, user_id, name, public_key, credential_type, created_ns, updated_ns) VALUES
			('k-x', 'o', 'x', 'ci', ?, 'CREDENTIAL_TYPE_API_KEY_P256', 1, 1),
			('k-n', 'o', 'n', 'ci', ?, 'CREDENTIAL_TYPE_API_KEY_P256', 3, 3)`, []any{shared.PublicKeyHex(), uncompressedP256(t, shared.PublicKeyHex())}},
		{`INSERT INTO authenticators(id, org_id, user_id, name, credential_id, public_key, created_ns, updated_ns) VALUES
			('a-y', 'o', 'y', 'pk', 'cred-1', ?, 2, 2)`, []any{shared.PublicKeyHex()}},
	})
	_, logs := openUpgraded(t, dir, "open a database with one key as three users' only credentials")
	var root, plain string
	for _, line := range strings.Split(logs.String(), "\n") {
		switch {
		case strings.Contains(line, "id=a-y"):
			root = line
		case strings.Contains(line, "id=k-n"):
			plain = line
		}
	}
	if !strings.Contains(root, "member of the root quorum") || !strings.Contains(root, "root_member=true") || !strings.Contains(root, "credentials_left=false") ||
		!strings.Contains(root, "put the backup vigil wrote before the upgrade") || !strings.Contains(root, "backup="+filepath.Join(dir, DatabaseFile)+".schema-19.") {
		t.Errorf("root member y's only passkey removed, but the warning does not say what it leaves:\n%s", root)
	}
	if !strings.Contains(plain, "no API key or passkey left") || strings.Contains(plain, "root quorum,") || !strings.Contains(plain, "root_member=false") {
		t.Errorf("member n's only API key removed, but the warning does not say so (or calls n a root member):\n%s", plain)
	}
}
