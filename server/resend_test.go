package server

import (
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// deleteOwnKey has carol delete the API key that stamps the request, and
// returns the request's bytes and its reply (the reply a client may lose).
func deleteOwnKey(t *testing.T, e *testEnv) ([]byte, reply) {
	t.Helper()
	u, err := e.clients["carol"].GetUser(ctxT(t), e.user("carol"))
	if err != nil {
		t.Fatal(err)
	}
	body := e.body(api.TypeDeleteAPIKeys, map[string]any{"userId": e.user("carol"), "apiKeyIds": []string{u.APIKeys[0].APIKeyID}}, nil)
	first := e.post(e.submitPath("delete_api_keys"), body, e.keys["carol"])
	if first.status != 200 || first.act.Status != api.StatusCompleted {
		t.Fatalf("first attempt: HTTP %d %s", first.status, first.body)
	}
	return body, first
}

// A submit whose reply was lost is resent byte for byte (Client.Resubmit;
// DESIGN.md §4: the same body is the same activity). When the first attempt
// deleted the very key that stamped it, the resend still gets the recorded
// activity, and nothing more is recorded.
func TestResendAfterDeletingOwnKeyGetsTheRecordedActivity(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 1})
	body, first := deleteOwnKey(t, e)
	again := e.post(e.submitPath("delete_api_keys"), body, e.keys["carol"])
	if again.status != 200 || again.act.ID != first.act.ID || again.act.Status != api.StatusCompleted {
		t.Fatalf("resend of the identical body: HTTP %d %s; want the recorded activity %s", again.status, again.body, first.act.ID)
	}
	if len(again.act.Votes) != len(first.act.Votes) || again.act.CanApprove {
		t.Errorf("the resend changed the activity or offers a vote: %d votes (was %d), canApprove %v", len(again.act.Votes), len(first.act.Votes), again.act.CanApprove)
	}
	acts, err := e.clients["alice"].ListActivities(ctxT(t), api.ListActivitiesOptions{Types: []string{api.TypeDeleteAPIKeys}})
	if err != nil {
		t.Fatal(err)
	}
	if len(acts) != 1 {
		t.Errorf("%d delete_api_keys activities after the resend, want 1", len(acts))
	}
}

// The deleted key gets nothing else: a new request is refused, and the
// refusal says how to find out whether an earlier request was recorded.
// Another key, stamping the very same bytes, is refused too.
func TestDeletedKeyGetsOnlyItsOwnRecordedRequests(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 1})
	body, _ := deleteOwnKey(t, e)

	fresh := e.body(api.TypeCreateUserTag, api.CreateUserTagParams{UserTagName: "after", UserIDs: []string{e.user("bob")}}, nil)
	r := e.post(e.submitPath("create_user_tag"), fresh, e.keys["carol"])
	wantError(t, r, 401, api.CodeUnauthenticated, "UNKNOWN_KEY")
	for _, want := range []string{"earlier request may have deleted this key", "list the organization's activities with another key"} {
		if !strings.Contains(r.err.Message, want) {
			t.Errorf("the refusal does not say %q: %s", want, r.err.Message)
		}
	}

	stranger, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	wantError(t, e.post(e.submitPath("delete_api_keys"), body, stranger), 401, api.CodeUnauthenticated, "UNKNOWN_KEY")
}

// A vote whose execution deleted the voter's own key (bob approving the
// deletion of his key) and whose reply was lost: the resend gets the
// deletion back.
func TestResendOfAVoteThatDeletedItsOwnKey(t *testing.T) {
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
	first := e.post(e.submitPath("approve_activity"), vote, e.keys["bob"])
	if first.status != 200 || first.act.Status != api.StatusCompleted {
		t.Fatalf("bob's vote: HTTP %d %s", first.status, first.body)
	}
	again := e.post(e.submitPath("approve_activity"), vote, e.keys["bob"])
	if again.status != 200 || again.act.ID != del.ID || len(again.act.Votes) != len(first.act.Votes) {
		t.Fatalf("resent vote: HTTP %d %s; want activity %s with its %d votes", again.status, again.body, del.ID, len(first.act.Votes))
	}
}

// A key deleted by other members' request (say, because it leaked) gets
// nothing back, not even for its own recent requests: a vote it cast before
// is refused like any request it stamps, with the hint.
func TestResendOfAVoteAfterOthersDeletedItsKeyIsRefused(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2})
	ctx := ctxT(t)
	act, err := e.clients["alice"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "voted", UserIDs: []string{e.user("bob")}})
	if err != nil {
		t.Fatal(err)
	}
	vote := e.body(api.TypeApproveActivity, api.ApproveActivityParams{Fingerprint: act.Fingerprint}, nil)
	if first := e.post(e.submitPath("approve_activity"), vote, e.keys["bob"]); first.status != 200 {
		t.Fatalf("bob's vote: HTTP %d %s", first.status, first.body)
	}
	revoke(t, e, "bob", "alice", "carol")
	r := e.post(e.submitPath("approve_activity"), vote, e.keys["bob"])
	wantError(t, r, 401, api.CodeUnauthenticated, "UNKNOWN_KEY")
	if !strings.Contains(r.err.Message, "list the organization's activities with another key") {
		t.Errorf("the refusal does not say how to check: %s", r.err.Message)
	}
}

// revoke has by and then approver delete name's only API key.
func revoke(t *testing.T, e *testEnv, name, by, approver string) {
	t.Helper()
	ctx := ctxT(t)
	u, err := e.clients[by].GetUser(ctx, e.user(name))
	if err != nil {
		t.Fatal(err)
	}
	del, err := e.clients[by].DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: e.user(name), APIKeyIDs: []string{u.APIKeys[0].APIKeyID}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.clients[approver].ApproveActivity(ctx, del.Fingerprint); err != nil {
		t.Fatal(err)
	}
}

// A key revoked by the quorum must not read, by resending its own pending
// request, what was decided after the revocation: neither the outcome nor a
// result, least of all a secret such as a read-only session's token.
func TestRevokedKeyCannotReadWhatWasDecidedAfterRevocation(t *testing.T) {
	for _, tc := range []struct {
		op     string
		typ    string
		params any
	}{
		{"create_user_tag", api.TypeCreateUserTag, api.CreateUserTagParams{UserTagName: "pending", UserIDs: []string{}}},
		{"create_read_only_session", api.TypeCreateReadOnlySession, map[string]any{}},
	} {
		t.Run(tc.op, func(t *testing.T) {
			e := newEnvWith(t, envOptions{threshold: 2})
			body := e.body(tc.typ, tc.params, nil)
			first := e.post(e.submitPath(tc.op), body, e.keys["carol"])
			if first.status != 200 || first.act.Status != api.StatusConsensusNeeded {
				t.Fatalf("carol's request: HTTP %d %s", first.status, first.body)
			}
			revoke(t, e, "carol", "alice", "bob")
			decided, err := e.clients["alice"].ApproveActivity(ctxT(t), first.act.Fingerprint)
			if err != nil || decided.Status != api.StatusCompleted {
				t.Fatalf("approving carol's request after the revocation: %v %v", decided.Status, err)
			}
			again := e.post(e.submitPath(tc.op), body, e.keys["carol"])
			if again.status == 200 {
				t.Fatalf("the revoked key read its request as decided after the revocation: %s", again.body)
			}
			wantError(t, again, 401, api.CodeUnauthenticated, "UNKNOWN_KEY")
		})
	}
}

// Carol deletes her key with it, and a policy makes the deletion wait for a
// second approval (without one, deleting one's own key completes at once);
// before it completes, other members delete that key by a request of their
// own. Carol's deletion is then not the one that removed the key (it is still
// pending, and would fail: the key is gone): her resend is refused.
func TestResendOfADeletionThatDidNotRemoveTheKeyIsRefused(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2})
	e.addPolicy("key deletions need two", api.EffectAllow, "activity.type == 'ACTIVITY_TYPE_DELETE_API_KEYS'", "approvers.count() >= 2")
	u, err := e.clients["carol"].GetUser(ctxT(t), e.user("carol"))
	if err != nil {
		t.Fatal(err)
	}
	body := e.body(api.TypeDeleteAPIKeys, map[string]any{"userId": e.user("carol"), "apiKeyIds": []string{u.APIKeys[0].APIKeyID}}, nil)
	if first := e.post(e.submitPath("delete_api_keys"), body, e.keys["carol"]); first.status != 200 || first.act.Status != api.StatusConsensusNeeded {
		t.Fatalf("carol's deletion: HTTP %d %s", first.status, first.body)
	}
	revoke(t, e, "carol", "alice", "bob")
	wantError(t, e.post(e.submitPath("delete_api_keys"), body, e.keys["carol"]), 401, api.CodeUnauthenticated, "UNKNOWN_KEY")
}

// Keys are unique per organization only: carol's key may also be a key of
// another organization's user. Deleting it here, with a lost reply, still
// gets the deletion back, not a 403 telling her to fix organizationId.
func TestResendAfterOwnKeyDeletedWhenKeyAlsoInAnotherOrg(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 1})
	k := e.keys["carol"]
	if _, err := e.srv.CreateOrganization(ctxT(t), "Other", 1, []UserSpec{{Name: "carol-elsewhere", Root: true,
		APIKeys: []APIKeySpec{{PublicKey: k.PublicKeyHex(), CredentialType: k.CredentialType()}}}}); err != nil {
		t.Fatal(err)
	}
	body, first := deleteOwnKey(t, e)
	again := e.post(e.submitPath("delete_api_keys"), body, k)
	if again.status != 200 || again.act.ID != first.act.ID {
		t.Fatalf("resend of the identical body: HTTP %d %s; want the recorded activity %s", again.status, again.body, first.act.ID)
	}
	// Any other request it stamps for this organization is still refused.
	fresh := e.body(api.TypeCreateUserTag, api.CreateUserTagParams{UserTagName: "after", UserIDs: []string{}}, nil)
	r := e.post(e.submitPath("create_user_tag"), fresh, k)
	wantError(t, r, 403, api.CodePermissionDenied, "FOREIGN_ORGANIZATION")
	if !strings.Contains(r.err.Message, "list the organization's activities with another key") {
		t.Errorf("the refusal does not say how to check: %s", r.err.Message)
	}
}

// An expired key was deleted by nobody: a resend of its own request, within
// the timestamp window, is refused with the hint.
func TestResendFromAnExpiredKeyIsRefused(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 1})
	k := e.newKey("short")
	other, err := e.srv.CreateOrganization(ctxT(t), "Other", 1, []UserSpec{{Name: "short", Root: true,
		APIKeys: []APIKeySpec{{PublicKey: k.PublicKeyHex(), ExpirationSeconds: 60}}}})
	if err != nil {
		t.Fatal(err)
	}
	body := e.body(api.TypeCreateUserTag, api.CreateUserTagParams{UserTagName: "before", UserIDs: []string{}}, map[string]any{"organizationId": other.ID})
	if first := e.post(e.submitPath("create_user_tag"), body, k); first.status != 200 || first.act.Status != api.StatusCompleted {
		t.Fatalf("request with the key still valid: HTTP %d %s", first.status, first.body)
	}
	e.skew.Store(int64(2 * time.Minute)) // expired, and still within the timestamp window
	r := e.post(e.submitPath("create_user_tag"), body, k)
	wantError(t, r, 401, api.CodeUnauthenticated, "API_KEY_EXPIRED")
	if !strings.Contains(r.err.Message, "list the organization's activities with another key") {
		t.Errorf("the refusal does not say how to check: %s", r.err.Message)
	}
}
