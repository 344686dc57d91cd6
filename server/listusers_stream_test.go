package server

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// seedRandomOrg adds users members to e's organization with random numbers
// of API keys, passkeys (some created in the same nanosecond), tags, OIDC
// identities (some linked before identities had a time) and MFA policies,
// inserted in a shuffled order, straight into the store.
func seedRandomOrg(t *testing.T, e *testEnv, rng *rand.Rand, users int) {
	t.Helper()
	tx, err := e.srv.db.writeDB.Begin()
	if err != nil {
		t.Fatal(err)
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := tx.Exec(q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`INSERT INTO oidc_trusted_issuers (org_id, issuer, audience, kid, public_key_pem, created_ns) VALUES (?, 'https://idp.example', 'aud-<&>', '', '', 1)`, e.org.ID)
	var tags []string
	for i := range 6 {
		id := fmt.Sprintf("rtag-%d", rng.IntN(1000)*10+i)
		tags = append(tags, id)
		exec(`INSERT INTO user_tags (id, org_id, name, created_ns) VALUES (?, ?, ?, ?)`, id, e.org.ID, id, rng.IntN(3))
	}
	// Ids are not in creation order: the reply's order is the users' seq.
	for _, u := range rng.Perm(users) {
		uid := fmt.Sprintf("ruser-%04d", rng.IntN(10000)*1000+u)
		exec(`INSERT INTO users (id, org_id, name, email, created_ns, updated_ns, seq) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			uid, e.org.ID, "name <&> \u2028 "+uid, []string{"", "a@b.example"}[rng.IntN(2)], rng.Int64N(1e18), rng.Int64N(1e18), 5000+rng.IntN(1<<20)*64+u)
		for k := range rng.IntN(5) {
			exec(`INSERT INTO api_keys (id, org_id, user_id, name, public_key, credential_type, expiration_seconds, created_ns, updated_ns) VALUES (?, ?, ?, ?, ?, 'CREDENTIAL_TYPE_API_KEY_P256', ?, ?, 1)`,
				fmt.Sprintf("rkey-%d%d-%s", rng.IntN(9), k, uid), e.org.ID, uid, fmt.Sprintf("k%d", k), fmt.Sprintf("02%062x", rng.Uint64()), rng.IntN(2)*3600, rng.IntN(3))
		}
		for k := range rng.IntN(5) {
			exec(`INSERT INTO authenticators (id, org_id, user_id, name, credential_id, public_key, transports, created_ns, updated_ns) VALUES (?, ?, ?, ?, ?, ?, '["usb","internal"]', ?, 1)`,
				fmt.Sprintf("rauth-%d-%d-%s", rng.IntN(9), k, uid), e.org.ID, uid, "a", fmt.Sprintf("cred-%x", rng.Uint64()), fmt.Sprintf("04%0126x", rng.Uint64()), rng.IntN(2))
		}
		for _, i := range rng.Perm(len(tags))[:rng.IntN(len(tags))] {
			exec(`INSERT INTO user_tag_members (tag_id, user_id) VALUES (?, ?)`, tags[i], uid)
		}
		for k := range rng.IntN(3) {
			issuer := []string{LocalOIDCIssuer, "https://idp.example", "https://other.example"}[rng.IntN(3)]
			exec(`INSERT INTO oidc_identities (org_id, issuer, subject, user_id, created_ns) VALUES (?, ?, ?, ?, ?)`,
				e.org.ID, issuer, fmt.Sprintf("sub-%d-%d-%s", rng.IntN(3), k, uid), uid, rng.IntN(2)*7)
		}
		for k := range rng.IntN(3) {
			exec(`INSERT INTO mfa_policies (id, org_id, user_id, name, condition, methods, ord, notes, seq, created_ns, updated_ns) VALUES (?, ?, ?, 'm', 'true', '[]', ?, '', ?, 1, 1)`,
				fmt.Sprintf("rmfa-%d-%d-%s", rng.IntN(9), k, uid), e.org.ID, uid, rng.IntN(2), rng.IntN(1000))
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// TestListUsersStreamedIsTheWholeEncoding: the streamed list_users reply is
// byte for byte api.Marshal of the users loadUsersIn reads whole (what the
// service sent before it streamed), on randomized organizations, past the
// bytes held before the first are sent.
func TestListUsersStreamedIsTheWholeEncoding(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			e := newEnv(t)
			rng := rand.New(rand.NewPCG(seed, 323))
			seedRandomOrg(t, e, rng, 60+rng.IntN(200))
			var users []api.User
			err := e.srv.inSnapshot(context.Background(), func(q querier) error {
				var err error
				users, err = loadUsersIn(context.Background(), q, e.org.ID, "")
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			want, err := api.Marshal(api.ListUsersResponse{Users: users})
			if err != nil {
				t.Fatal(err)
			}
			r := e.post(api.QueryPrefix+api.QueryListUsers, []byte(fmt.Sprintf(`{"organizationId":%q}`, e.org.ID)), e.keys["alice"])
			if r.status != 200 {
				t.Fatalf("list_users: %d %.300s", r.status, r.body)
			}
			if string(r.body) != string(want) {
				at := 0
				for at < min(len(r.body), len(want)) && r.body[at] == want[at] {
					at++
				}
				t.Fatalf("the streamed reply (%d bytes) differs from the whole encoding (%d bytes) at byte %d:\n got …%.200s\nwant …%.200s",
					len(r.body), len(want), at, r.body[max(0, at-80):], want[max(0, at-80):])
			}
		})
	}
}

// TestListUsersErrorAfterTheFirstBytes: a stored row that cannot be read,
// met after the first bytes of the reply were sent, cuts the reply: the
// client fails, and never reads a shorter list that parses. Met before,
// it is an ordinary error reply.
func TestListUsersErrorAfterTheFirstBytes(t *testing.T) {
	e := newEnv(t)
	seedLargeOrg(t, e, 300, 3, 3) // well past streamSpill
	ctx := context.Background()
	if _, err := e.srv.db.writeDB.Exec(`UPDATE authenticators SET transports = 'not json' WHERE user_id = 'bulk-user-00290'`); err != nil {
		t.Fatal(err)
	}
	users, err := e.clients["alice"].ListUsers(ctx)
	if err == nil {
		t.Fatalf("list_users with an unreadable passkey of its 290th bulk user gave %d users and no error", len(users))
	}
	if !strings.Contains(err.Error(), "closed the connection before its reply") {
		t.Fatalf("list_users cut short: %v; want the client's error for a reply cut short", err)
	}
	if _, err := e.srv.db.writeDB.Exec(`UPDATE authenticators SET transports = '[]' WHERE user_id = 'bulk-user-00290'`); err != nil {
		t.Fatal(err)
	}
	if _, err := e.srv.db.writeDB.Exec(`UPDATE authenticators SET transports = 'not json' WHERE user_id = 'bulk-user-00000'`); err != nil {
		t.Fatal(err)
	}
	_, err = e.clients["alice"].ListUsers(ctx)
	if err == nil || !strings.Contains(err.Error(), "500") && !strings.Contains(err.Error(), "internal") {
		t.Fatalf("list_users failing before its first bytes: %v; want the service's error reply", err)
	}
}

// TestListUsersHoldsOneUserAtATime: while a list_users reply is being
// sent, the service holds what it is sending (a user and its buffers), not
// the whole reply: any member may ask for it, and a few replies of a large
// organization held at once exhausted the service's memory. The heap is
// measured inside the response's Write, once the first MiB came, when the
// service waits on its client.
func TestListUsersHoldsOneUserAtATime(t *testing.T) {
	e := newEnv(t)
	seedLargeOrg(t, e, 300, 50, 20) // about 6.8 MiB
	body := []byte(fmt.Sprintf(`{"organizationId":%q}`, e.org.ID))
	req := httptest.NewRequest("POST", api.QueryPrefix+api.QueryListUsers, bytes.NewReader(body))
	name, value, err := e.keys["alice"].Stamp(body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set(name, value)
	w := &heapAtFirstMiB{header: http.Header{}}
	runtime.GC()
	runtime.ReadMemStats(&w.before)
	e.srv.Handler().ServeHTTP(w, req)
	if w.status != 0 && w.status != 200 || w.sent < 6<<20 {
		t.Fatalf("list_users: status %d, %d bytes; want 200 and the whole reply", w.status, w.sent)
	}
	if w.grown > int64(w.sent)/8 {
		t.Fatalf("with the first MiB of a %d-byte list_users reply sent, the service held %d bytes more than before it; want less than an eighth of the reply", w.sent, w.grown)
	}
}

// heapAtFirstMiB is a ResponseWriter that counts what is written, keeping
// none of it, and measures the heap when the first MiB has come.
type heapAtFirstMiB struct {
	header   http.Header
	status   int
	sent     int
	before   runtime.MemStats
	measured bool
	grown    int64
}

func (w *heapAtFirstMiB) Header() http.Header  { return w.header }
func (w *heapAtFirstMiB) WriteHeader(code int) { w.status = code }
func (w *heapAtFirstMiB) Write(b []byte) (int, error) {
	w.sent += len(b)
	if !w.measured && w.sent >= 1<<20 {
		w.measured = true
		runtime.GC()
		var now runtime.MemStats
		runtime.ReadMemStats(&now)
		w.grown = int64(now.HeapAlloc) - int64(w.before.HeapAlloc)
	}
	return len(b), nil
}
