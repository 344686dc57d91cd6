package server

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/keys"
)

// A database stored before migration 19 may hold one passkey key, or one
// credential id, under two passkeys of an organization (the key perhaps once
// uncompressed): it still opens, the oldest passkey is kept with its key
// stored compressed, the later ones are removed and each removal is logged,
// and from then on the key cannot be registered a second time.
func TestMigrationKeepsTheOldestOfDuplicatePasskeys(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, DatabaseFile)+"?_pragma=foreign_keys(ON)&_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	if err := migrateUpTo(ctx, db, migrationUniqueAuthenticators-1); err != nil {
		t.Fatal(err)
	}
	shared, _ := keys.NewSoftAuthenticator("")
	other, _ := keys.NewSoftAuthenticator("")
	lone, _ := keys.NewSoftAuthenticator("")
	sharedUncompressed := strings.ToUpper(uncompressedP256(t, shared.PublicKeyHex()))
	execStatements(t, db, []statement{
		{`INSERT INTO organizations(id, name, root_threshold, root_user_ids, created_ns) VALUES ('o', 'Old', 2, '["x","y","z"]', 1), ('p', 'Other', 1, '["w"]', 1)`, nil},
		{`INSERT INTO users(id, org_id, name, email, seq, created_ns, updated_ns) VALUES ('x', 'o', 'x', '', 1, 1, 1), ('y', 'o', 'y', '', 2, 1, 1), ('z', 'o', 'z', '', 3, 1, 1), ('w', 'p', 'w', '', 1, 1, 1)`, nil},
		{`INSERT INTO authenticators(id, org_id, user_id, name, credential_id, public_key, created_ns, updated_ns) VALUES
			('a-x', 'o', 'x', 'pk', 'cred-1', ?, 1, 1),
			('a-y', 'o', 'y', 'pk', 'cred-2', ?, 2, 2),
			('a-z', 'o', 'z', 'pk', 'cred-1', ?, 3, 3),
			('a-z2', 'o', 'z', 'pk2', 'cred-3', ?, 4, 4),
			('a-w', 'p', 'w', 'pk', 'cred-1', ?, 5, 5)`,
			[]any{sharedUncompressed, shared.PublicKeyHex(), other.PublicKeyHex(), lone.PublicKeyHex(), shared.PublicKeyHex()}},
	})
	srv, logs := openUpgraded(t, dir, "open a database with duplicate passkeys")
	got := map[string]string{}
	rows, err := srv.db.read.QueryContext(ctx, `SELECT id, public_key FROM authenticators`)
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
	want := map[string]string{"a-x": shared.PublicKeyHex(), "a-z2": lone.PublicKeyHex(), "a-w": shared.PublicKeyHex()}
	if len(got) != len(want) {
		t.Errorf("passkeys after the upgrade %v, want %v: the oldest of each key and credential id kept, other organizations untouched", got, want)
	}
	for id, pub := range want {
		if got[id] != pub {
			t.Errorf("passkey %s has key %q after the upgrade, want %q (compressed)", id, got[id], pub)
		}
	}
	for _, removed := range []string{"a-y", "a-z"} {
		if !strings.Contains(logs.String(), "authenticator="+removed) {
			t.Errorf("the removal of passkey %s is not logged:\n%s", removed, logs.String())
		}
	}
	_, err = srv.CreateUser(ctx, "o", UserSpec{Name: "v", Authenticators: []AuthenticatorSpec{{Name: "pk", CredentialID: "cred-9", PublicKey: sharedUncompressed}}})
	if err == nil {
		t.Error("x's passkey key was registered again after the upgrade")
	}
}
