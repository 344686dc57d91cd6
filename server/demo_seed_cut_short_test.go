package server

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/keys"
)

// The demo is seeded in many transactions. A first `vigil serve --demo`
// stopped part way (kill -9, a full disk, a power cut) must not keep the
// directory from starting again, nor leave a second "Vigil Demo" beside a
// half-built one whose members' private keys were never kept.
func TestDemoSeedCutShortIsSeededOnceAtTheNextStart(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fails func(query string, args []any) bool
	}{
		{"at its last write", func(query string, args []any) bool {
			return strings.Contains(query, "service_state") && len(args) > 0 && args[0] == stateDemoKeys
		}},
		{"at its fixtures", func(query string, args []any) bool {
			return strings.Contains(query, "INSERT INTO features")
		}},
		{"at its first activity", func(query string, args []any) bool {
			return strings.Contains(query, "INSERT INTO activities")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			dir := t.TempDir()
			keysDir := filepath.Join(dir, "keys")
			srv, err := Open(Config{DataDir: dir, HoldWebhooks: true})
			if err != nil {
				t.Fatal(err)
			}
			srv.db.write.faults.set(func(query string, args []any) error {
				if tc.fails(query, args) {
					return &storageError{err: errors.New("injected: disk full"), reason: "the disk is full", advice: "free space"}
				}
				return nil
			})
			if _, err := SeedDemo(ctx, srv, keysDir); err == nil {
				t.Fatal("seeding succeeded despite the fault")
			}
			srv.db.write.faults.set(nil)
			if err := srv.Close(); err != nil {
				t.Fatal(err)
			}

			srv, err = Open(Config{DataDir: dir, HoldWebhooks: true})
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			info, err := SeedDemo(ctx, srv, keysDir)
			if err != nil {
				t.Fatalf("second start: %v", err)
			}
			var n int
			if err := srv.db.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM organizations WHERE name = ?`, DemoOrganizationName).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != 1 {
				t.Fatalf("%d organizations named %q after a seeding cut short and a restart; want 1", n, DemoOrganizationName)
			}
			// The demo that is left is the one whose keys were written.
			org, err := loadOrg(ctx, srv.db.read, info.OrganizationID)
			if err != nil {
				t.Fatalf("the seeded demo organization: %v", err)
			}
			alice, err := keys.Store{Dir: keysDir}.Load("alice")
			if err != nil {
				t.Fatal(err)
			}
			var owner string
			if err := srv.db.read.QueryRowContext(ctx, `SELECT org_id FROM api_keys WHERE public_key = ?`, alice.PublicKeyHex()).Scan(&owner); err != nil {
				t.Fatalf("alice's key file is not a key of any organization: %v", err)
			}
			if owner != org.ID {
				t.Fatalf("alice's key belongs to %s, not to the demo organization %s", owner, org.ID)
			}
			// And a third start finds it seeded.
			again, err := SeedDemo(ctx, srv, keysDir)
			if err != nil || again.OrganizationID != info.OrganizationID {
				t.Fatalf("third start: %v, organization %v; want %s", err, again, info.OrganizationID)
			}
		})
	}
}
