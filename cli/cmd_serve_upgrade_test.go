package cli

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/server"
)

// downgradeToSchema21 turns the current schema of dir's vigil.db back into
// schema 21, as the vigil before migration 22 left it: API keys unique on
// (org_id, public_key), no curve, and none of migration 23's indexes by user.
func downgradeToSchema21(t *testing.T, dir string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, server.DatabaseFile))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`DELETE FROM schema_migrations WHERE version > 21`,
		`DROP INDEX api_keys_org_curve_public_key`,
		`CREATE UNIQUE INDEX api_keys_org_public_key ON api_keys(org_id, public_key)`,
		`DROP INDEX api_keys_org_user`,
		`DROP INDEX authenticators_user`,
		`DROP INDEX mfa_policies_user`,
		`DROP INDEX oidc_identities_user`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// `vigil serve --demo` on a data directory of an older vigil upgrades it
// while seeding, before the service opens: the operator is told on stderr,
// as by `vigil serve`, where the copy of the database from before the
// upgrade is, not by a log nobody reads.
func TestServeDemoTellsOfTheUpgradeBackup(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := prepareDemoIn(t, dir, "http://127.0.0.1:1"); err != nil {
		t.Fatal(err)
	}
	downgradeToSchema21(t, dir)
	backups := func() []string {
		m, err := filepath.Glob(filepath.Join(dir, server.DatabaseFile+".schema-21.*.bak"))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	if b := backups(); len(b) != 0 {
		t.Fatalf("backups before the upgrade: %v", b)
	}
	_, errOut := startServe(t, dir, "--demo")
	b := backups()
	if len(b) != 1 {
		t.Fatalf("want one backup of the schema-21 database after the upgrade, have %v", b)
	}
	if got := errOut.String(); !strings.Contains(got, "upgraded the database schema") || !strings.Contains(got, b[0]) {
		t.Errorf("vigil serve --demo's stderr does not tell of the upgrade and its backup %s:\n%s", b[0], got)
	}
}
