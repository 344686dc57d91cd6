package server

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// padded is body with spaces after its opening brace (valid JSON, signed as
// it is) so that its message, encoded, is want bytes.
func padded(t *testing.T, body []byte, want int) []byte {
	t.Helper()
	pad := want - encodedStringLen(string(body))
	if pad < 0 {
		t.Fatalf("the body is already %d bytes encoded, over %d", encodedStringLen(string(body)), want)
	}
	out := append([]byte("{"+strings.Repeat(" ", pad)), body[1:]...)
	if len(out) > api.MaxRequestBodyBytes {
		t.Fatalf("padded body %d bytes, over the request limit", len(out))
	}
	return out
}

// pendingMfaPolicy is a create_mfa_policy body that waits for votes (its
// user is unknown, so it fails once approved, which does not matter here).
func pendingMfaPolicy(e *testEnv) []byte {
	return e.body(api.TypeCreateMfaPolicy, api.CreateMfaPolicyParams{UserID: "not-a-user-of-this-organization", MfaPolicyName: "m", Condition: "true",
		RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthAPIKey, ID: "k"}}}}}, nil)
}

// checkVotes fails the test unless each vote of a is in the state want
// gives for its voter.
func checkVotes(t *testing.T, a *api.Activity, want map[string]string) {
	t.Helper()
	if len(a.Votes) != len(want) {
		t.Fatalf("%d votes, want %d", len(a.Votes), len(want))
	}
	for _, v := range a.Votes {
		c := api.CheckVote(*a, v)
		if c.State != want[v.User.UserName] {
			t.Errorf("%s's vote (message %d bytes) is %s (%s), want %s", v.User.UserName, len(v.Message), c.State, c.Reason, want[v.User.UserName])
		}
	}
}

// A member who may vote pads their approval body with whitespace (a valid
// JSON body their own stamp signs, which the service accepts) so that its
// message would fill what is left of the votes' messages' room after the
// requester's. Only that approval loses its message: every honest approval
// cast after it stays checkable, and so does the submission.
func TestPaddedApprovalDoesNotStripLaterHonestApprovals(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 3})
	r := e.post(e.submitPath("create_mfa_policy"), pendingMfaPolicy(e), e.keys["alice"])
	if r.status != 200 || r.act.Status != api.StatusConsensusNeeded {
		t.Fatalf("submit: HTTP %d %s %+v", r.status, r.act.Status, r.err)
	}
	a, err := e.clients["alice"].GetActivity(ctxT(t), r.act.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Leave 40 bytes of room, less than any approval.
	room := maxVoteMessagesBytes - encodedStringLen(a.Votes[0].Message)
	approval := padded(t, e.body(api.TypeApproveActivity, api.ApproveActivityParams{Fingerprint: a.Fingerprint}, nil), room-40)
	if r := e.post(e.submitPath("approve_activity"), approval, e.keys["bob"]); r.status != 200 {
		t.Fatalf("padded approval by bob: HTTP %d %+v (the service must accept it, as the real one does)", r.status, r.err)
	}
	if _, err := e.clients["carol"].ApproveActivity(ctxT(t), a.Fingerprint); err != nil {
		t.Fatalf("carol's approval: %v", err)
	}
	a, err = e.clients["alice"].GetActivity(ctxT(t), r.act.ID)
	if err != nil {
		t.Fatal(err)
	}
	checkVotes(t, a, map[string]string{"alice": api.VoteVerified, "bob": api.VoteNotCheckable, "carol": api.VoteVerified})
}

// A second member who submits the requester's body again approves with a
// copy of it, as large as the requester made it. Later honest approvals keep
// their messages before that copy does: a submission padded so that two
// copies fill the room does not leave them unverifiable.
func TestSubmissionCopyDoesNotStripLaterHonestApprovals(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 3})
	body := padded(t, pendingMfaPolicy(e), (maxVoteMessagesBytes-40)/2)
	var id, fp string
	for _, who := range []string{"alice", "bob"} {
		r := e.post(e.submitPath("create_mfa_policy"), body, e.keys[who])
		if r.status != 200 || r.act.Status != api.StatusConsensusNeeded {
			t.Fatalf("create_mfa_policy by %s: HTTP %d %s %+v", who, r.status, r.act.Status, r.err)
		}
		id, fp = r.act.ID, r.act.Fingerprint
	}
	if _, err := e.clients["carol"].ApproveActivity(ctxT(t), fp); err != nil {
		t.Fatalf("carol's approval: %v", err)
	}
	a, err := e.clients["alice"].GetActivity(ctxT(t), id)
	if err != nil {
		t.Fatal(err)
	}
	checkVotes(t, a, map[string]string{"alice": api.VoteVerified, "bob": api.VoteNotCheckable, "carol": api.VoteVerified})
}
