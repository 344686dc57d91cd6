package server

import (
	"context"
	"database/sql"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
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

// TestVotesMigrationKeepsVotes upgrades a database of schema 4, holding a vote,
// to the current schema: the vote is kept, and the same user may vote again on
// the activity (approvals expire; one vote per round, not per activity).
func TestVotesMigrationKeepsVotes(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "v4.db")+"?_pragma=foreign_keys(ON)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_ns INTEGER NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	for v := 1; v <= 4; v++ {
		if _, err := db.Exec(migrations[v-1]); err != nil {
			t.Fatalf("migration %d: %v", v, err)
		}
		if _, err := db.Exec(`INSERT INTO schema_migrations(version, applied_ns) VALUES (?, 0)`, v); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []string{
		`INSERT INTO organizations(id, name, root_threshold, root_user_ids, created_ns) VALUES ('o', 'O', 1, '["u"]', 1)`,
		`INSERT INTO activities(id, org_id, type, status, fingerprint, requester_id, body, intent, result, created_ns, updated_ns)
			VALUES ('a', 'o', 'T', 'ACTIVITY_STATUS_CONSENSUS_NEEDED', 'sha256:00', 'u', x'7b7d', '{}', '{}', 1, 1)`,
		`INSERT INTO votes(id, activity_id, user_id, selection, message, public_key, signature, scheme, body_fingerprint, created_ns)
			VALUES ('v1', 'a', 'u', 'VOTE_SELECTION_APPROVED', '', 'pk', 'sig', 'S', 'sha256:00', 1)`,
		`INSERT INTO policy_evaluations(id, activity_id, org_id, vote_id, outcomes, created_ns)
			VALUES ('e1', 'a', 'o', 'v1', '[{"policyId":"p","outcome":"OUTCOME_ALLOW"}]', 1)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`INSERT INTO votes(id, activity_id, user_id, selection, message, public_key, signature, scheme, body_fingerprint, created_ns)
		VALUES ('v2', 'a', 'u', 'VOTE_SELECTION_APPROVED', '', 'pk', 'sig', 'S', 'sha256:01', 2)`); err == nil {
		t.Fatal("schema 4 accepted a second vote by one user: the test does not start where it should")
	}
	if err := migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	var id string
	var seq, created int64
	if err := db.QueryRow(`SELECT id, seq, created_ns FROM votes WHERE activity_id = 'a'`).Scan(&id, &seq, &created); err != nil || id != "v1" || created != 1 {
		t.Fatalf("vote after migration: %q seq %d created %d, %v", id, seq, created, err)
	}
	// Migration 7: the vote's policy evaluation moved into its row.
	var evalID, outcomes string
	if err := db.QueryRow(`SELECT evaluation_id, outcomes FROM votes WHERE id = 'v1'`).Scan(&evalID, &outcomes); err != nil ||
		evalID != "e1" || outcomes != `[{"policyId":"p","outcome":"OUTCOME_ALLOW"}]` {
		t.Fatalf("evaluation after migration: %q %q, %v", evalID, outcomes, err)
	}
	if _, err := db.Exec(`INSERT INTO votes(id, activity_id, user_id, selection, message, public_key, signature, scheme, body_fingerprint, created_ns)
		VALUES ('v2', 'a', 'u', 'VOTE_SELECTION_APPROVED', '', 'pk', 'sig', 'S', 'sha256:01', 2)`); err != nil {
		t.Fatalf("second round's vote refused: %v", err)
	}
	var next int64
	if err := db.QueryRow(`SELECT seq FROM votes WHERE id = 'v2'`).Scan(&next); err != nil || next <= seq {
		t.Fatalf("vote sequence after migration: %d after %d, %v", next, seq, err)
	}
	// Deleting the activity still deletes its votes (the foreign key survived).
	if _, err := db.Exec(`DELETE FROM activities WHERE id = 'a'`); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.QueryRow(`SELECT COUNT(*) FROM votes`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d votes left after deleting their activity, %v", n, err)
	}
}

// TestActivitiesRebuildKeepsHistory: migration 9 rebuilds activities (drops
// the table its votes and app proofs reference). Every row and column of the
// history survives, foreign keys still cascade, and an activity is found by
// its fingerprint through the new index.
func TestActivitiesRebuildKeepsHistory(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "v8.db")+"?_pragma=foreign_keys(ON)&_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := migrateUpTo(ctx, db, 8); err != nil {
		t.Fatal(err)
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`INSERT INTO organizations(id, name, root_threshold, root_user_ids, created_ns) VALUES ('o', 'O', 1, '["u"]', 1)`)
	for i, st := range []string{api.StatusCompleted, api.StatusConsensusNeeded, api.StatusFailed} {
		id, fp := "a"+strconv.Itoa(i), "sha256:"+strings.Repeat(strconv.Itoa(i), 64)
		exec(`INSERT INTO activities(id, org_id, type, status, fingerprint, requester_id, body, intent, result, failure, generate_app_proofs, created_ns, updated_ns)
			VALUES (?, 'o', 'ACTIVITY_TYPE_CREATE_USER_TAG', ?, ?, 'u', ?, '{}', '{}', ?, ?, ?, ?)`, id, st, fp, []byte(`{"n":`+strconv.Itoa(i)+`}`), `{"message":"f`+strconv.Itoa(i)+`"}`, i%2, 10+i, 20+i)
		exec(`INSERT INTO votes(id, activity_id, user_id, selection, message, public_key, signature, scheme, body_fingerprint, created_ns, evaluation_id, outcomes)
			VALUES (?, ?, 'u', 'VOTE_SELECTION_APPROVED', '', 'pk', 'sig', 'S', ?, 1, ?, '[]')`, "v"+strconv.Itoa(i), id, fp, "e"+strconv.Itoa(i))
		exec(`INSERT INTO app_proofs(activity_id, proof) VALUES (?, '{}')`, id)
	}
	dump := func(q string) string {
		t.Helper()
		rows, err := db.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		var out strings.Builder
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&out, "%v\n", vals)
		}
		return out.String()
	}
	const everything = `SELECT * FROM activities ORDER BY seq`
	// The columns of votes at schema 8 (later migrations add some).
	const allVotes = `SELECT seq, id, activity_id, user_id, selection, message, public_key, signature, scheme, body_fingerprint, created_ns, evaluation_id, outcomes FROM votes ORDER BY seq`
	before, votes, proofs := dump(everything), dump(allVotes), dump(`SELECT * FROM app_proofs ORDER BY seq`)
	if err := migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	if after := dump(everything); after != before || before == "" {
		t.Fatalf("activities changed:\n%s\nwas\n%s", after, before)
	}
	if v, p := dump(allVotes), dump(`SELECT * FROM app_proofs ORDER BY seq`); v != votes || p != proofs {
		t.Fatalf("votes or app proofs changed:\n%s%s\nwere\n%s%s", v, p, votes, proofs)
	}
	if n := dump(`SELECT name FROM sqlite_sequence WHERE name = 'activities'`); n != "" {
		t.Errorf("activities still use AUTOINCREMENT: %s", n)
	}
	a, err := loadActivity(ctx, db, time.Now(), "o", "fingerprint", "sha256:"+strings.Repeat("1", 64))
	if err != nil || a == nil || a.ID != "a1" {
		t.Fatalf("by fingerprint: %+v, %v", a, err)
	}
	if plan := dump(`EXPLAIN QUERY PLAN SELECT seq FROM activities WHERE substr(fingerprint, 8, 16) = substr('sha256:11', 8, 16) AND fingerprint = 'sha256:11' AND org_id = 'o'`); !strings.Contains(plan, "activities_fingerprint") {
		t.Errorf("fingerprint lookup plan: %s", plan)
	}
	// Foreign keys are on again and still cascade to the rebuilt table's children.
	exec(`DELETE FROM activities WHERE id = 'a0'`)
	if n := dump(`SELECT COUNT(*) FROM votes WHERE activity_id = 'a0'`) + dump(`SELECT COUNT(*) FROM app_proofs WHERE activity_id = 'a0'`); n != "[0]\n[0]\n" {
		t.Errorf("votes and app proofs of a deleted activity: %q", n)
	}
	if _, err := db.Exec(`INSERT INTO votes(id, activity_id, user_id, selection, message, public_key, signature, scheme, body_fingerprint, created_ns)
		VALUES ('vx', 'no-such-activity', 'u', 'VOTE_SELECTION_APPROVED', '', 'pk', 'sig', 'S', 'x', 1)`); err == nil {
		t.Error("a vote for no activity was accepted: foreign keys are off after migrating")
	}
}

// TestSessionProfileMigrationUpgradesADataDirectory: a data directory whose
// database is at schema 9 (api_keys without session_profile_id) opens, is
// migrated, and serves its existing key over HTTP without a session profile;
// a LOGIN key added afterwards keeps its session profile.
func TestSessionProfileMigrationUpgradesADataDirectory(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, DatabaseFile)+"?_pragma=foreign_keys(ON)&_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	if err := migrateUpTo(ctx, db, 9); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`SELECT session_profile_id FROM api_keys`); err == nil {
		t.Fatal("schema 9 already has session_profile_id: the test does not start where it should")
	}
	k, _ := keys.Generate(keys.SchemeP256)
	for _, q := range []string{
		`INSERT INTO organizations(id, name, root_threshold, root_user_ids, created_ns) VALUES ('o', 'Old', 1, '["u"]', 1)`,
		`INSERT INTO users(id, org_id, name, email, seq, created_ns, updated_ns) VALUES ('u', 'o', 'alice', '', 1, 1, 1)`,
		`INSERT INTO api_keys(id, org_id, user_id, name, public_key, credential_type, expiration_seconds, created_ns, updated_ns)
			VALUES ('k', 'o', 'u', 'old key', '` + k.PublicKeyHex() + `', 'CREDENTIAL_TYPE_API_KEY_P256', 0, 1, 1)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	srv, err := Open(Config{DataDir: dir})
	if err != nil {
		t.Fatalf("open the schema-9 data directory: %v", err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	c, err := api.NewClient(hs.URL, "o", k)
	if err != nil {
		t.Fatal(err)
	}
	old, err := c.GetAPIKey(ctx, "k")
	if err != nil {
		t.Fatalf("get_api_key after the upgrade: %v", err)
	}
	if old.APIKeyName != "old key" || old.Credential.Type != api.CredentialAPIKeyP256 || old.Credential.SessionProfileID != "" {
		t.Errorf("the old key after the upgrade: %+v", old)
	}
	login, _ := keys.Generate(keys.SchemeP256)
	bob, err := srv.CreateUser(ctx, "o", UserSpec{Name: "bob", APIKeys: []APIKeySpec{{PublicKey: login.PublicKeyHex(), CredentialType: api.CredentialLogin, SessionProfileID: "sp-1"}}})
	if err != nil {
		t.Fatal(err)
	}
	u, err := c.GetUser(ctx, bob)
	if err != nil || len(u.APIKeys) != 1 {
		t.Fatalf("bob: %+v %v", u, err)
	}
	got, err := c.GetAPIKey(ctx, u.APIKeys[0].APIKeyID)
	if err != nil || got.Credential.SessionProfileID != "sp-1" {
		t.Errorf("the LOGIN key after the upgrade: %+v %v", got, err)
	}
}

// TestVoteCredentialMigrationKeepsOldVotesEvaluating: a vote stored at schema
// 10 (without the credential that cast it) still counts, as the key that cast
// it: migration 11 finds the voter's key with the vote's public key, so an
// allow whose consensus names that OAuth key by id and type is met once a
// second member approves after the upgrade.
func TestVoteCredentialMigrationKeepsOldVotesEvaluating(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, DatabaseFile)+"?_pragma=foreign_keys(ON)&_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	if err := migrateUpTo(ctx, db, 10); err != nil {
		t.Fatal(err)
	}
	alice, _ := keys.Generate(keys.SchemeP256)
	bob, _ := keys.Generate(keys.SchemeP256)
	now := time.Now()
	body := []byte(`{"type":"ACTIVITY_TYPE_CREATE_USER_TAG","organizationId":"o","timestampMs":"` + strconv.FormatInt(now.UnixMilli(), 10) +
		`","parameters":{"userTagName":"oncall","userIds":["u"]}}`)
	fp := fingerprintSHA256(body)
	_, stamp, err := alice.Stamp(body)
	if err != nil {
		t.Fatal(err)
	}
	st, err := keys.DecodeStamp(stamp)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO organizations(id, name, root_threshold, root_user_ids, created_ns) VALUES ('o', 'Old', 1, '["r"]', 1)`, nil},
		{`INSERT INTO users(id, org_id, name, email, seq, created_ns, updated_ns) VALUES ('r', 'o', 'root', '', 1, 1, 1), ('u', 'o', 'alice', '', 2, 1, 1), ('w', 'o', 'bob', '', 3, 1, 1)`, nil},
		{`INSERT INTO api_keys(id, org_id, user_id, name, public_key, credential_type, expiration_seconds, created_ns, updated_ns)
			VALUES ('k-alice', 'o', 'u', 'Oauth - alice', ?, ?, 0, 1, 1), ('k-bob', 'o', 'w', 'bob', ?, ?, 0, 1, 1)`,
			[]any{alice.PublicKeyHex(), api.CredentialOauthKeyP256, bob.PublicKeyHex(), api.CredentialAPIKeyP256}},
		{`INSERT INTO policies(id, org_id, name, effect, condition, consensus, notes, seq, created_ns, updated_ns)
			VALUES ('p', 'o', 'tags with alice''s OAuth key', ?, 'activity.type == ''ACTIVITY_TYPE_CREATE_USER_TAG''', ?, '', 1, 1, 1)`,
			[]any{api.EffectAllow, "approvers.count() >= 2 && credentials.any(c, c.id == 'k-alice' && c.type == '" + api.CredentialOauthKeyP256 + "')"}},
		{`INSERT INTO activities(id, org_id, type, status, fingerprint, requester_id, body, intent, result, failure, generate_app_proofs, created_ns, updated_ns)
			VALUES ('a', 'o', 'ACTIVITY_TYPE_CREATE_USER_TAG', ?, ?, 'u', ?, '{"createUserTagIntent":{"userTagName":"oncall","userIds":["u"]}}', '{}', '', 0, ?, ?)`,
			[]any{api.StatusConsensusNeeded, fp, body, now.UnixNano(), now.UnixNano()}},
		{`INSERT INTO votes(id, activity_id, user_id, selection, message, public_key, signature, scheme, body_fingerprint, created_ns, evaluation_id, outcomes)
			VALUES ('v', 'a', 'u', ?, '', ?, ?, ?, ?, ?, 'e', '[]')`,
			[]any{api.VoteApproved, st.PublicKey, st.Signature, st.Scheme, fp, now.UnixNano()}},
	} {
		if _, err := db.Exec(q.sql, q.args...); err != nil {
			t.Fatalf("%s: %v", q.sql, err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	srv, err := Open(Config{DataDir: dir})
	if err != nil {
		t.Fatalf("open the schema-10 data directory: %v", err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	c, err := api.NewClient(hs.URL, "o", bob)
	if err != nil {
		t.Fatal(err)
	}
	act, err := c.ApproveActivity(ctx, fp)
	if err != nil {
		t.Fatalf("bob approves after the upgrade: %v", err)
	}
	if act.Status != api.StatusCompleted {
		t.Errorf("status %s after bob's approval, want COMPLETED: alice's vote from before the upgrade counts as her OAuth key k-alice", act.Status)
	}
}
