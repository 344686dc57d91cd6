package server

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/vigil-console/vigil/keys"
)

// SQLite opens the database through a "file:" URI, where '#' ends the path,
// '?' starts the query and "%XX" is decoded. A data directory whose name holds
// one of them must still be served from its own vigil.db.

// A data directory renamed to a name with '#' (mv /srv/vigil /srv/vigil#old)
// keeps its organizations, and nothing is created beside it.
func TestRenamedDataDirWithHashServesItsOwnDatabase(t *testing.T) {
	ctx := context.Background()
	parent := t.TempDir()
	plain := filepath.Join(parent, "vigil")
	srv, err := Open(Config{DataDir: plain})
	if err != nil {
		t.Fatal(err)
	}
	k, _ := keys.Generate(keys.SchemeP256)
	org, err := srv.CreateOrganization(ctx, "Kept", 1, []UserSpec{{Name: "a", Root: true, APIKeys: []APIKeySpec{{PublicKey: k.PublicKeyHex()}}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	hashed := filepath.Join(parent, "vigil#old")
	if err := os.Rename(plain, hashed); err != nil {
		t.Fatal(err)
	}
	srv, err = Open(Config{DataDir: hashed})
	if err != nil {
		t.Fatalf("Open %s: %v", hashed, err)
	}
	defer srv.Close()
	if fi, err := os.Stat(plain); err == nil {
		t.Errorf("Open(%s) created %s (%d bytes, a file outside the data directory)", hashed, plain, fi.Size())
	}
	if _, err := loadOrg(ctx, srv.db.read, org.ID); err != nil {
		t.Fatalf("organization %s not served after its data directory was renamed to %s: %v", org.ID, hashed, err)
	}
}

// Two data directories /x/svc#1 and /x/svc#2 hold two locks, so they must
// also hold two databases.
func TestDataDirsDifferingAfterHashDoNotShareADatabase(t *testing.T) {
	ctx := context.Background()
	parent := t.TempDir()
	// Both start from a complete database, as a backup restored next to the
	// original would.
	base := filepath.Join(parent, "seed")
	srv, err := Open(Config{DataDir: base})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(base, DatabaseFile))
	if err != nil {
		t.Fatal(err)
	}
	var srvs []*Server
	for _, name := range []string{"svc#1", "svc#2"} {
		d := filepath.Join(parent, name)
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, DatabaseFile), b, 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := Open(Config{DataDir: d})
		if err != nil {
			t.Fatalf("Open %s: %v", d, err)
		}
		defer s.Close()
		srvs = append(srvs, s)
	}
	k, _ := keys.Generate(keys.SchemeP256)
	org, err := srvs[0].CreateOrganization(ctx, "OnlyInOne", 1, []UserSpec{{Name: "a", Root: true, APIKeys: []APIKeySpec{{PublicKey: k.PublicKeyHex()}}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := loadOrg(ctx, srvs[1].db.read, org.ID); err == nil {
		t.Fatalf("an organization created by the service of svc#1 is in the database of svc#2")
	}
}

// A fresh data directory named with URI syntax is created, keeps its data
// across a restart, and leaves nothing outside itself.
func TestFreshDataDirWithURISyntaxInItsName(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"data#1", "what?", "ops%41", "pct%25", "a?b#c%2"} {
		t.Run(name, func(t *testing.T) {
			parent := t.TempDir()
			d := filepath.Join(parent, name)
			srv, err := Open(Config{DataDir: d})
			if err != nil {
				t.Fatalf("Open %s: %v", d, err)
			}
			k, _ := keys.Generate(keys.SchemeP256)
			org, err := srv.CreateOrganization(ctx, "Here", 1, []UserSpec{{Name: "a", Root: true, APIKeys: []APIKeySpec{{PublicKey: k.PublicKeyHex()}}}})
			if err != nil {
				t.Fatal(err)
			}
			if err := srv.Close(); err != nil {
				t.Fatal(err)
			}
			entries, err := os.ReadDir(parent)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if e.Name() != name {
					t.Errorf("%s was created outside the data directory %s", filepath.Join(parent, e.Name()), d)
				}
			}
			srv, err = Open(Config{DataDir: d})
			if err != nil {
				t.Fatalf("reopen %s: %v", d, err)
			}
			defer srv.Close()
			if _, err := loadOrg(ctx, srv.db.read, org.ID); err != nil {
				t.Fatalf("organization %s not served after a restart of %s: %v", org.ID, d, err)
			}
			// The pragmas after the path still apply.
			var mode string
			if err := srv.db.read.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
				t.Fatal(err)
			}
			if mode != "wal" {
				t.Errorf("journal_mode of %s is %q, want wal", d, mode)
			}
		})
	}
}
