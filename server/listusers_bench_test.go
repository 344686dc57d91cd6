package server

import (
	"fmt"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// seedLargeOrg adds users members to e's organization, each holding keys
// API keys and passkeys passkeys, straight into the store (the request path
// would take hours at these sizes).
func seedLargeOrg(b testing.TB, e *testEnv, users, keys, passkeys int) {
	b.Helper()
	tx, err := e.srv.db.writeDB.Begin()
	if err != nil {
		b.Fatal(err)
	}
	for u := range users {
		uid := fmt.Sprintf("bulk-user-%05d", u)
		if _, err := tx.Exec(`INSERT INTO users (id, org_id, name, email, created_ns, updated_ns, seq) VALUES (?, ?, ?, '', 1, 1, ?)`, uid, e.org.ID, uid, 1000+u); err != nil {
			b.Fatal(err)
		}
		for k := range keys {
			if _, err := tx.Exec(`INSERT INTO api_keys (id, org_id, user_id, name, public_key, credential_type, created_ns, updated_ns) VALUES (?, ?, ?, 'k', ?, 'CREDENTIAL_TYPE_API_KEY_P256', ?, 1)`,
				fmt.Sprintf("%s-key-%d", uid, k), e.org.ID, uid, fmt.Sprintf("02%062x", u*1000+k), u*1000+k); err != nil {
				b.Fatal(err)
			}
		}
		for k := range passkeys {
			if _, err := tx.Exec(`INSERT INTO authenticators (id, org_id, user_id, name, credential_id, public_key, created_ns, updated_ns) VALUES (?, ?, ?, 'a', ?, ?, ?, 1)`,
				fmt.Sprintf("%s-auth-%d", uid, k), e.org.ID, uid, fmt.Sprintf("cred-%d-%d", u, k), fmt.Sprintf("04%0126x", u*1000+k), u*1000+k); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkListUsersLargeOrg sends list_users (the local service's; the
// service's SPEC lists no such query, and so no paging of it) for an
// organization of 5,000 members holding 50 API keys and 20 passkeys each,
// and reports the reply's size: what the client's bound on an unpaged list
// (api.DefaultMaxListReplyBytes) is measured against.
func BenchmarkListUsersLargeOrg(b *testing.B) {
	e := newEnv(b)
	seedLargeOrg(b, e, 5000, 50, 20)
	body := []byte(fmt.Sprintf(`{"organizationId":%q}`, e.org.ID))
	b.ResetTimer()
	for b.Loop() {
		r := e.post(api.QueryPrefix+api.QueryListUsers, body, e.keys["alice"])
		if r.status != 200 {
			b.Fatalf("list_users: %d %.300s", r.status, r.body)
		}
		b.ReportMetric(float64(len(r.body))/(1<<20), "MiB/reply")
	}
}
