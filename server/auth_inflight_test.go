package server

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// admitted runs the checks a submit passes before it waits for the writer
// (stamp, credential, timestamp, body), as submitRequest does, and returns
// the request as it sits in the writer's queue.
func admitted(t *testing.T, e *testEnv, k *keys.Key, op string, body []byte) *admittedSubmit {
	t.Helper()
	name, value, err := k.Stamp(body)
	if err != nil {
		t.Fatal(err)
	}
	h := http.Header{}
	h.Set(name, value)
	st, err := e.srv.parseStampHeaders(h)
	if err != nil {
		t.Fatal(err)
	}
	o, ok := api.OperationByPath(op)
	if !ok {
		t.Fatalf("no operation %s", op)
	}
	req, _, err := e.srv.admitSubmit(ctxT(t), st, o, body)
	if err != nil || req == nil {
		t.Fatalf("%s not admitted: %v", op, err)
	}
	return req
}

// wantRefused checks that err is the service's refusal with errorCode.
func wantRefused(t *testing.T, err error, status int, errorCode string) {
	t.Helper()
	var refused *Error
	if !errors.As(err, &refused) || refused.Status != status || refused.ErrorCode != errorCode {
		t.Fatalf("got %v, want HTTP %d %s", err, status, errorCode)
	}
}

// Root members revoke a stolen key; a vote the thief sent before, still
// waiting for the writer when the deletion was acknowledged, must not be
// counted afterwards (a deleted key stops authenticating at once). Here it
// would have completed the activity.
func TestVoteOfAKeyDeletedWhileQueuedIsNotCounted(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	pending, err := e.clients["alice"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "t", UserIDs: []string{e.user("bob")}})
	if err != nil || pending.Status != api.StatusConsensusNeeded {
		t.Fatalf("submit: %v %+v", err, pending)
	}
	queued := admitted(t, e, e.keys["carol"], "approve_activity",
		e.body(api.TypeApproveActivity, map[string]any{"fingerprint": pending.Fingerprint}, nil))

	del, err := e.clients["alice"].DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: e.user("carol"), APIKeyIDs: []string{queued.c.CredentialID}})
	if err != nil {
		t.Fatal(err)
	}
	if done, err := e.clients["bob"].ApproveActivity(ctx, del.Fingerprint); err != nil || done.Status != api.StatusCompleted {
		t.Fatalf("deletion: %v %+v", err, done)
	}

	act, err := e.srv.runSubmit(ctx, queued)
	wantRefused(t, err, http.StatusUnauthorized, "UNKNOWN_KEY")
	if act.ID != "" {
		t.Errorf("the refusal came with activity %s", act.ID)
	}
	after, err := e.clients["alice"].GetActivity(ctx, pending.ID)
	if err != nil {
		t.Fatal(err)
	}
	if after.Status != api.StatusConsensusNeeded || len(after.Votes) != len(pending.Votes) {
		t.Errorf("the revoked key's vote was counted: activity is %s with %d votes (had %d)", after.Status, len(after.Votes), len(pending.Votes))
	}
}

// A key whose lifetime ends while its request waits for the writer is
// refused as expired at the transaction's reading of the clock.
func TestSubmitOfAKeyExpiredWhileQueuedIsRefused(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 1})
	k := e.newKey("short")
	other, err := e.srv.CreateOrganization(ctxT(t), "Other", 1, []UserSpec{{Name: "short", Root: true,
		APIKeys: []APIKeySpec{{PublicKey: k.PublicKeyHex(), ExpirationSeconds: 60}}}})
	if err != nil {
		t.Fatal(err)
	}
	body := e.body(api.TypeCreateUserTag, api.CreateUserTagParams{UserTagName: "late", UserIDs: []string{}}, map[string]any{"organizationId": other.ID})
	queued := admitted(t, e, k, "create_user_tag", body)
	e.skew.Store(int64(2 * time.Minute)) // expired, still within the timestamp window

	_, err = e.srv.runSubmit(ctxT(t), queued)
	wantRefused(t, err, http.StatusUnauthorized, "API_KEY_EXPIRED")
	if n := countActivities(t, e, other.ID); n != 0 {
		t.Errorf("%d activities recorded by the expired key, want 0", n)
	}
}

// The lost-reply exception still holds for a resend that was queued while
// the first attempt (bob's vote completing the deletion of his own key)
// committed: it gets the recorded deletion, and nothing more is recorded.
func TestResendQueuedBehindItsOwnKeyDeletionGetsTheRecordedActivity(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2})
	ctx := ctxT(t)
	u, err := e.clients["alice"].GetUser(ctx, e.user("bob"))
	if err != nil {
		t.Fatal(err)
	}
	del, err := e.clients["alice"].DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: e.user("bob"), APIKeyIDs: []string{u.APIKeys[0].APIKeyID}})
	if err != nil {
		t.Fatal(err)
	}
	vote := e.body(api.TypeApproveActivity, api.ApproveActivityParams{Fingerprint: del.Fingerprint}, nil)
	resend := admitted(t, e, e.keys["bob"], "approve_activity", vote)
	first := e.post(e.submitPath("approve_activity"), vote, e.keys["bob"])
	if first.status != 200 || first.act.Status != api.StatusCompleted {
		t.Fatalf("bob's vote: HTTP %d %s", first.status, first.body)
	}

	again, err := e.srv.runSubmit(ctx, resend)
	if err != nil || again.ID != del.ID || len(again.Votes) != len(first.act.Votes) {
		t.Fatalf("queued resend: %v, activity %q with %d votes; want activity %s with its %d votes", err, again.ID, len(again.Votes), del.ID, len(first.act.Votes))
	}
}

func countActivities(t *testing.T, e *testEnv, orgID string) int {
	t.Helper()
	var n int
	if err := e.srv.db.read.QueryRowContext(ctxT(t), `SELECT count(*) FROM activities WHERE org_id = ?`, orgID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
