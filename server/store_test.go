package server

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/vigil-console/vigil/keys"
)

func TestMigrationsAreRecordedAndReopenKeepsState(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	srv, err := Open(Config{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	k, _ := keys.Generate(keys.SchemeP256)
	org, err := srv.CreateOrganization(ctx, "Persisted", 1, []UserSpec{{Name: "a", Root: true, APIKeys: []APIKeySpec{{PublicKey: k.PublicKeyHex()}}}})
	if err != nil {
		t.Fatal(err)
	}
	fetcher := srv.TLSFetcherPublicKey()
	jwks := srv.hooks.jwks()
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	srv, err = Open(Config{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if srv.TLSFetcherPublicKey() != fetcher || srv.hooks.jwks().Keys[0].Kid != jwks.Keys[0].Kid {
		t.Fatal("service keys changed across a restart")
	}
	if _, err := loadOrg(ctx, srv.db.read, org.ID); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", filepath.Join(dir, DatabaseFile))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n, max int
	if err := db.QueryRow(`SELECT COUNT(*), MAX(version) FROM schema_migrations`).Scan(&n, &max); err != nil || n != len(migrations) || max != len(migrations) {
		t.Fatalf("schema_migrations: %d rows, max %d (%v); want %d", n, max, err, len(migrations))
	}
	// A database from a newer vigil is refused rather than misread.
	if _, err := db.Exec(`INSERT INTO schema_migrations(version, applied_ns) VALUES (?, 0)`, len(migrations)+1); err != nil {
		t.Fatal(err)
	}
	if err := migrate(ctx, db); err == nil {
		t.Fatal("a newer schema was accepted")
	}
}

func TestDuplicatePublicKeyInOrganizationRefused(t *testing.T) {
	srv, err := Open(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	k, _ := keys.Generate(keys.SchemeP256)
	spec := []APIKeySpec{{PublicKey: k.PublicKeyHex()}}
	if _, err := srv.CreateOrganization(context.Background(), "Dup", 1, []UserSpec{{Name: "a", Root: true, APIKeys: spec}, {Name: "b", APIKeys: spec}}); err == nil {
		t.Fatal("two users of one organization share a key")
	}
}
