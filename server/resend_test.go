package server

import (
	"strings"
	"testing"

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

// A vote resent after its key was deleted (by another activity meanwhile)
// gets the activity voted on, with that vote.
func TestResendOfAVoteAfterItsKeyWasDeleted(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2})
	ctx := ctxT(t)
	act, err := e.clients["alice"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "voted", UserIDs: []string{e.user("bob")}})
	if err != nil {
		t.Fatal(err)
	}
	vote := e.body(api.TypeApproveActivity, api.ApproveActivityParams{Fingerprint: act.Fingerprint}, nil)
	first := e.post(e.submitPath("approve_activity"), vote, e.keys["bob"])
	if first.status != 200 || first.act.Status != api.StatusCompleted {
		t.Fatalf("bob's vote: HTTP %d %s", first.status, first.body)
	}
	u, err := e.clients["alice"].GetUser(ctx, e.user("bob"))
	if err != nil {
		t.Fatal(err)
	}
	del, err := e.clients["alice"].DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: e.user("bob"), APIKeyIDs: []string{u.APIKeys[0].APIKeyID}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.clients["carol"].ApproveActivity(ctx, del.Fingerprint); err != nil {
		t.Fatal(err)
	}
	again := e.post(e.submitPath("approve_activity"), vote, e.keys["bob"])
	if again.status != 200 || again.act.ID != act.ID || len(again.act.Votes) != len(first.act.Votes) {
		t.Fatalf("resent vote: HTTP %d %s; want activity %s with its %d votes", again.status, again.body, act.ID, len(first.act.Votes))
	}
	// The same key's vote on another activity is a new request: refused.
	other, err := e.clients["alice"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "later", UserIDs: []string{e.user("bob")}})
	if err != nil {
		t.Fatal(err)
	}
	newVote := e.body(api.TypeApproveActivity, api.ApproveActivityParams{Fingerprint: other.Fingerprint}, nil)
	wantError(t, e.post(e.submitPath("approve_activity"), newVote, e.keys["bob"]), 401, api.CodeUnauthenticated, "UNKNOWN_KEY")
}
