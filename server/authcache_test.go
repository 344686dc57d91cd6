package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// whoamiStatus sends a stamped whoami and returns the HTTP status and errorCode.
func whoamiStatus(e *testEnv, k keys.Stamper) (int, string, error) {
	body, _ := json.Marshal(api.WhoamiRequest{OrganizationID: e.org.ID})
	req, err := http.NewRequest("POST", e.http.URL+api.QueryPrefix+api.QueryWhoami, bytes.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	name, value, err := k.Stamp(body)
	if err != nil {
		return 0, "", err
	}
	req.Header.Set(name, value)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var eb api.ErrorBody
	json.Unmarshal(b, &eb)
	code := ""
	for _, d := range eb.Details {
		if d.ErrorCode != "" {
			code = d.ErrorCode
		}
	}
	return resp.StatusCode, code, nil
}

func apiKeyIDOf(t *testing.T, e *testEnv, user string) string {
	t.Helper()
	users, err := e.clients["alice"].ListUsers(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range users {
		if u.UserID == e.user(user) && len(u.APIKeys) > 0 {
			return u.APIKeys[0].APIKeyID
		}
	}
	t.Fatalf("%s has no API key", user)
	return ""
}

// TestDeletedKeyIsRefusedAtOnce: while the operator's key is in use (so its
// lookup is cached, and requests keep refilling the cache during the delete),
// delete_api_keys completes; every request started after that reply is 401.
func TestDeletedKeyIsRefusedAtOnce(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2, dataDir: t.TempDir()})
	ctx := ctxT(t)
	op := e.keys["operator"]
	for range 3 {
		if st, code, err := whoamiStatus(e, op); err != nil || st != 200 {
			t.Fatalf("operator whoami before the delete: %d %s %v", st, code, err)
		}
	}
	keyID := apiKeyIDOf(t, e, "operator")
	act, err := e.clients["alice"].DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: e.user("operator"), APIKeyIDs: []string{keyID}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("delete_api_keys: %v %+v", err, act)
	}

	var deleted atomic.Bool // set once the completing reply has arrived
	var wg sync.WaitGroup
	stop := make(chan struct{})
	var stopOnce sync.Once
	halt := func() { stopOnce.Do(func() { close(stop) }); wg.Wait() }
	defer halt() // before the server closes, whichever way the test ends
	var lateSuccess atomic.Int64
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				after := deleted.Load()
				st, _, err := whoamiStatus(e, op)
				if err != nil {
					select {
					case <-stop:
					default:
						t.Error(err)
					}
					return
				}
				if after && st == 200 {
					lateSuccess.Add(1)
				}
			}
		}()
	}
	time.Sleep(20 * time.Millisecond) // the hammering is under way
	done, err := e.clients["bob"].ApproveActivity(ctx, act.Fingerprint)
	if err != nil || done.Status != api.StatusCompleted {
		t.Fatalf("approve the delete: %v %+v", err, done)
	}
	deleted.Store(true)
	st, code, err := whoamiStatus(e, op)
	if err != nil || st != http.StatusUnauthorized || code != "UNKNOWN_KEY" {
		t.Fatalf("the very next request with the deleted key: HTTP %d %s %v; want 401 UNKNOWN_KEY", st, code, err)
	}
	time.Sleep(50 * time.Millisecond)
	halt()
	if n := lateSuccess.Load(); n > 0 {
		t.Fatalf("%d requests with the deleted key succeeded after delete_api_keys completed", n)
	}
	// Other users' cached keys still work.
	if st, code, err := whoamiStatus(e, e.keys["carol"]); err != nil || st != 200 {
		t.Fatalf("carol after the delete: %d %s %v", st, code, err)
	}
}

// TestExpiredKeyIsRefusedAtOnce: a cached key stops working the moment its
// lifetime ends, without any write to the store.
func TestExpiredKeyIsRefusedAtOnce(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2})
	k, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.srv.CreateUser(context.Background(), e.org.ID, UserSpec{Name: "temp",
		APIKeys: []APIKeySpec{{Name: "short", PublicKey: k.PublicKeyHex(), ExpirationSeconds: 60}}}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if st, code, err := whoamiStatus(e, k); err != nil || st != 200 {
			t.Fatalf("whoami with the fresh key: %d %s %v", st, code, err)
		}
	}
	e.skew.Store(int64(61 * time.Second))
	if st, code, err := whoamiStatus(e, k); err != nil || st != http.StatusUnauthorized || code != "API_KEY_EXPIRED" {
		t.Fatalf("whoami with the expired key: HTTP %d %s %v; want 401 API_KEY_EXPIRED", st, code, err)
	}
}

// TestCacheFollowsNewKeysAndUsers: a key registered after a lookup of the
// same public key failed works at once, and a new user's name is served.
func TestCacheFollowsNewKeysAndUsers(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2})
	k, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	if st, code, _ := whoamiStatus(e, k); st != http.StatusUnauthorized || code != "UNKNOWN_KEY" {
		t.Fatalf("unregistered key: HTTP %d %s", st, code)
	}
	if _, err := e.srv.CreateUser(context.Background(), e.org.ID, UserSpec{Name: "newcomer",
		APIKeys: []APIKeySpec{{Name: "k", PublicKey: k.PublicKeyHex()}}}); err != nil {
		t.Fatal(err)
	}
	who, err := e.client(k).Whoami(ctxT(t))
	if err != nil || who.Username != "newcomer" {
		t.Fatalf("whoami right after registration: %v %+v", err, who)
	}
}

func TestTablesChanged(t *testing.T) {
	for _, c := range []struct {
		q    string
		want uint8
	}{
		{"DELETE FROM api_keys WHERE id = ?", changedAuth},
		{"  delete from users where id = ?", changedAuth | changedPolicies | changedVotes},
		{"UPDATE organizations SET root_user_ids = ?", changedAuth | changedPolicies | changedFeatures | changedVotes},
		{"INSERT INTO features(org_id, name, value) VALUES (?, ?, ?)", changedFeatures},
		{"INSERT INTO policies(id) VALUES (?)", changedPolicies},
		{"INSERT OR IGNORE INTO user_tag_members(tag_id, user_id) VALUES (?, ?)", changedPolicies},
		{"SELECT id FROM api_keys WHERE user_id = ?", 0},
		{"INSERT INTO votes(id) VALUES (?)", changedVotes},
		{"INSERT INTO invitations(id) VALUES (?)", 0},
		{"SAVEPOINT write_job", 0},
	} {
		if got := tablesChanged(c.q); got != c.want {
			t.Errorf("tablesChanged(%q) = %b, want %b", c.q, got, c.want)
		}
	}
}

// TestPolicyChangeReachesCachedVoterAnswers: whether a non-root user may vote
// on an activity is cached per activity; a new policy asking for that user's
// consensus changes the answer on the next list.
func TestPolicyChangeReachesCachedVoterAnswers(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	act, err := e.clients["alice"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "pending-tag", UserIDs: []string{e.user("operator")}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("submit: %v %+v", err, act)
	}
	canApprove := func() bool {
		t.Helper()
		acts, err := e.clients["operator"].ListActivities(ctx, api.ListActivitiesOptions{Statuses: []string{api.StatusConsensusNeeded}})
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range acts {
			if a.ID == act.ID {
				return a.CanApprove
			}
		}
		t.Fatalf("activity %s not listed", act.ID)
		return false
	}
	for range 2 {
		if canApprove() {
			t.Fatal("operator may approve before any policy asks for it")
		}
	}
	p, err := e.clients["alice"].CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "operators approve tags", Effect: api.EffectAllow,
		Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'", Consensus: "approvers.count() >= 2"})
	if err != nil {
		t.Fatal(err)
	}
	if done, err := e.clients["bob"].ApproveActivity(ctx, p.Fingerprint); err != nil || done.Status != api.StatusCompleted {
		t.Fatalf("approve the policy: %v %+v", err, done)
	}
	if !canApprove() {
		t.Fatal("after a policy asks for consensus on this activity, the operator is still not offered the vote")
	}
}

// TestListShowsNewVotes: a list's votes come from a cache; a vote cast after
// the list was cached shows on the next list.
func TestListShowsNewVotes(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	act, err := e.clients["alice"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "t", UserIDs: []string{e.user("bob")}})
	if err != nil {
		t.Fatal(err)
	}
	votes := func() int {
		t.Helper()
		acts, err := e.clients["carol"].ListActivities(ctx, api.ListActivitiesOptions{Statuses: []string{api.StatusConsensusNeeded}})
		if err != nil || len(acts) != 1 || acts[0].ID != act.ID {
			t.Fatalf("list: %v %d", err, len(acts))
		}
		return len(acts[0].Votes)
	}
	// Twice: the second list is served from the cache the first filled.
	if first, second := votes(), votes(); first != 1 || second != 1 {
		t.Fatalf("listed votes %d then %d, want the requester's vote only", first, second)
	}
	if r, err := e.clients["bob"].RejectActivity(ctx, act.Fingerprint); err != nil || r.Status != api.StatusConsensusNeeded {
		t.Fatalf("reject: %v %+v", err, r)
	}
	if n := votes(); n != 2 {
		t.Fatalf("after bob's rejection the list shows %d votes, want 2", n)
	}
	// Listed rows come from a cache too; a changed row is read again.
	if r, err := e.clients["carol"].ApproveActivity(ctx, act.Fingerprint); err != nil || r.Status != api.StatusCompleted {
		t.Fatalf("approve: %v %+v", err, r)
	}
	acts, err := e.clients["carol"].ListActivities(ctx, api.ListActivitiesOptions{})
	if err != nil || len(acts) != 1 || acts[0].Status != api.StatusCompleted || len(acts[0].Votes) != 3 || acts[0].Result.CreateUserTagResult == nil {
		t.Fatalf("after the deciding approval the list shows %+v (%v)", acts, err)
	}
}

// TestWriteTransactionReadsItsOwnWritesPastTheCache: a write transaction (a
// group commit of several jobs) keeps using the caches of tables it has not
// written — submits write activities and votes, never users — and reads the
// database for a table it has written, so it sees its own change.
func TestWriteTransactionReadsItsOwnWritesPastTheCache(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	alice := e.org.UserIDs["alice"]
	if _, err := e.srv.user(ctx, e.srv.db.read, alice); err != nil { // fills the cache
		t.Fatal(err)
	}
	err := e.srv.db.inTx(ctx, func(tx *txn) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM votes WHERE id = ''`); err != nil {
			return err
		}
		if !cacheUsable(tx, changedAuth) || cacheUsable(tx, changedVotes) {
			t.Errorf("after writing votes: users cache usable %v (want true), votes cache usable %v (want false)",
				cacheUsable(tx, changedAuth), cacheUsable(tx, changedVotes))
		}
		if _, err := tx.ExecContext(ctx, `UPDATE users SET name = 'alice renamed' WHERE id = ?`, alice); err != nil {
			return err
		}
		u, err := e.srv.user(ctx, tx, alice)
		if err != nil {
			return err
		}
		if u.name != "alice renamed" {
			t.Errorf("within the transaction that renamed her, alice is %q", u.name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if u, err := e.srv.user(ctx, e.srv.db.read, alice); err != nil || u.name != "alice renamed" {
		t.Fatalf("after the commit: %q, %v", u.name, err)
	}
}
