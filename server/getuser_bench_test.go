package server

import (
	"fmt"
	"testing"
)

// BenchmarkGetUserLargeOrg reads one user of an organization whose other
// 2,000 members hold 50 API keys each (100,000 keys) and 100 of them 20
// passkeys each: get_user's cost is the user's rows, not the organization's.
func BenchmarkGetUserLargeOrg(b *testing.B) {
	e := newEnv(b)
	tx, err := e.srv.db.writeDB.Begin()
	if err != nil {
		b.Fatal(err)
	}
	for u := range 2000 {
		uid := fmt.Sprintf("bulk-user-%04d", u)
		if _, err := tx.Exec(`INSERT INTO users (id, org_id, name, email, created_ns, updated_ns, seq) VALUES (?, ?, ?, '', 1, 1, ?)`, uid, e.org.ID, uid, 1000+u); err != nil {
			b.Fatal(err)
		}
		for k := range 50 {
			if _, err := tx.Exec(`INSERT INTO api_keys (id, org_id, user_id, name, public_key, credential_type, created_ns, updated_ns) VALUES (?, ?, ?, 'k', ?, 'CREDENTIAL_TYPE_API_KEY_P256', ?, 1)`,
				fmt.Sprintf("%s-key-%d", uid, k), e.org.ID, uid, fmt.Sprintf("02%062x", u*100+k), u*100+k); err != nil {
				b.Fatal(err)
			}
			if u < 100 && k < 20 {
				if _, err := tx.Exec(`INSERT INTO authenticators (id, org_id, user_id, name, credential_id, public_key, created_ns, updated_ns) VALUES (?, ?, ?, 'a', ?, ?, ?, 1)`,
					fmt.Sprintf("%s-auth-%d", uid, k), e.org.ID, uid, fmt.Sprintf("cred-%d-%d", u, k), fmt.Sprintf("04%062x", u*100+k), u*100+k); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	ctx := ctxT(b)
	alice := e.clients["alice"]
	bob := e.user("bob")
	b.ResetTimer()
	for b.Loop() {
		if _, err := alice.GetUser(ctx, bob); err != nil {
			b.Fatal(err)
		}
	}
}
