package api_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// Votes are checked on the activity as sent (decoded exactly): an honest
// vote whose signed body holds characters a sanitising client escapes (a
// zero-width space, a line separator, a bidi control) verifies there. The
// same activity decoded by a sanitising client shows another intent than
// the one signed, and its requester's vote must not say the intent shown
// is the one signed: callers check votes on an exact decode (the CLI's
// text output does: cli TestActivityGetTextVerifiesAnHonestTagWithEscapedCharacters).
func TestHonestVotesVerifyThroughASanitisingClient(t *testing.T) {
	demo := servertest.StartDemo(t)
	act := votedTag(t, demo, "a\u200bb\u2028c\u202ed")
	ctx := context.Background()
	exact, err := demo.ClientAt(demo.URL, "alice", api.WithExactStrings()).GetActivity(ctx, act.ID)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range api.CheckVotes(*exact) {
		if c.State != api.VoteVerified {
			t.Errorf("vote %d of an honest activity read exactly: %s (%s), want verified", i, c.State, c.Reason)
		}
	}
	sanitised, err := demo.Client("alice").GetActivity(ctx, act.ID)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range checkedAsListed(t, demo, *sanitised) {
		if c.Reason == api.SubmissionSigned {
			t.Errorf("vote %d of the activity read sanitised (its tag name escaped): %+v, want the escaped name not taken for the signed one", i, c)
		}
	}
}

// checkedAsListed is a's vote checks with the organization's user list
// read: only then may the requester's vote say the requester signed the
// intent (api.SubmissionSigned).
func checkedAsListed(t *testing.T, demo *servertest.Demo, a api.Activity) []api.VoteCheck {
	t.Helper()
	users, err := demo.ClientAt(demo.URL, "alice", api.WithExactStrings()).ListUsers(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	checks, _ := api.CheckActivityVotes(a, users)
	return checks
}

// Read exactly, the policy's notes shown are the text `line one\nline two`
// (backslash, n) while the operator signed a line break: two different
// strings, so the requester's vote must not say the intent shown is the
// one signed.
func TestExactComparisonRefusesAnEscapedLookalike(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()
	act, err := demo.Client("operator").CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "p", Effect: "EFFECT_ALLOW", Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'", Consensus: "approvers.any(user, user.id == 'x')", Notes: "line one\nline two"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := demo.ClientAt(demo.URL, "alice", api.WithExactStrings()).GetActivity(ctx, act.ID)
	if err != nil {
		t.Fatal(err)
	}
	if c := checkedAsListed(t, demo, *got); len(c) == 0 || c[0].Reason != api.SubmissionSigned {
		t.Fatalf("set-up: the honest activity's checks = %+v, want the requester's vote to verify its intent", c)
	}
	b, _ := json.Marshal(got)
	forged := strings.Replace(string(b), `"notes":"line one\nline two"`, `"notes":"line one\\nline two"`, 1)
	if forged == string(b) {
		t.Fatalf("no notes to change in %s", b)
	}
	var a api.Activity
	if err := json.Unmarshal([]byte(forged), &a); err != nil {
		t.Fatal(err)
	}
	for i, c := range checkedAsListed(t, demo, a) {
		if c.State == api.VoteVerified && c.Reason == api.SubmissionSigned {
			t.Errorf("vote %d: %+v for notes shown as the text \\n (signed: a line break)", i, c)
		}
	}
}

// A newer service's intent may carry a field vigil does not know (here a
// userTagId beside the tag's name). vigil cannot compare it with the signed
// parameters: the requester's honest vote is verified and said to be not
// compared, never FAILED as if the service had forged it.
func TestIntentWithAnUnknownFieldIsNotComparedNotFailed(t *testing.T) {
	demo := servertest.StartDemo(t)
	act := votedTag(t, demo, "newer-service")
	proxy := demo.Rewriting(func(op string, request, reply []byte) []byte {
		if op != "query/"+api.QueryGetActivity {
			return reply
		}
		return []byte(strings.Replace(string(reply), `"createUserTagIntent":{`, `"createUserTagIntent":{"userTagId":"01a2-new",`, 1))
	})
	got, err := demo.ClientAt(proxy, "carol", api.WithExactStrings()).GetActivity(context.Background(), act.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Intent.UnknownKeys() == nil {
		t.Fatalf("set-up: the intent %+v is read whole; the test needs one vigil cannot read", got.Intent)
	}
	requester := got.VoteOf(memberID(t, demo, "operator"))
	if requester == nil {
		t.Fatal("the requester's vote is not shown")
	}
	c := api.CheckVote(*got, *requester)
	if c.State != api.VoteVerified || !strings.Contains(c.Reason, "not compared") {
		t.Errorf("the requester's honest vote under an intent with an unknown field: %+v, want verified and said to be not compared", c)
	}
	// An unknown field added does not hide a known one changed, nor a known
	// one sent again in another case (Go would read the last).
	for _, forged := range []string{
		`"createUserTagIntent":{"userTagId":"01a2-new","userTagName":"evil","x":`,
		`"createUserTagIntent":{"userTagId":"01a2-new","UserTagName":"evil",`,
	} {
		proxy := demo.Rewriting(func(op string, request, reply []byte) []byte {
			if op != "query/"+api.QueryGetActivity {
				return reply
			}
			out := strings.Replace(string(reply), `"createUserTagIntent":{`, forged, 1)
			// the first form renames the real userTagName to the unknown "x"
			out = strings.Replace(out, `"x":"userTagName":`, `"x":`, 1)
			return []byte(out)
		})
		got, err := demo.ClientAt(proxy, "carol", api.WithExactStrings()).GetActivity(context.Background(), act.ID)
		if err != nil {
			t.Fatal(err)
		}
		if requester = got.VoteOf(memberID(t, demo, "operator")); requester == nil {
			t.Fatal("the requester's vote is not shown")
		}
		if c := api.CheckVote(*got, *requester); c.State != api.VoteFailed {
			t.Errorf("an unknown field beside a known one changed (%s): %+v, want FAILED", forged, c)
		}
	}
	// A different operation's intent under this type still FAILS.
	proxy = demo.Rewriting(func(op string, request, reply []byte) []byte {
		if op != "query/"+api.QueryGetActivity {
			return reply
		}
		return []byte(strings.Replace(string(reply), `"createUserTagIntent":{`, `"deleteApiKeysIntent":{`, 1))
	})
	got, err = demo.ClientAt(proxy, "carol", api.WithExactStrings()).GetActivity(context.Background(), act.ID)
	if err != nil {
		t.Fatal(err)
	}
	if requester = got.VoteOf(memberID(t, demo, "operator")); requester == nil {
		t.Fatal("the requester's vote is not shown")
	}
	if c := api.CheckVote(*got, *requester); c.State != api.VoteFailed {
		t.Errorf("the requester's vote under another operation's intent: %+v, want FAILED", c)
	}
}
