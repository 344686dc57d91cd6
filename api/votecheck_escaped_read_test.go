package api_test

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// The comparison is not skipped by a known field sent twice (a
// StrictJSONError keeps the whole operation raw, as an unknown field does):
// the intent shown differs from the one signed.
func TestDuplicateKnownFieldInTheIntentFails(t *testing.T) {
	demo := servertest.StartDemo(t)
	act := votedTag(t, demo, "benign-tag")
	proxy := demo.Rewriting(func(op string, request, reply []byte) []byte {
		if op != "query/"+api.QueryGetActivity {
			return reply
		}
		return []byte(strings.ReplaceAll(string(reply), `"userTagName":"benign-tag"`, `"userTagName":"EVIL-tag","userTagName":"EVIL-tag"`))
	})
	got, err := demo.ClientAt(proxy, "carol", api.WithExactStrings()).GetActivity(context.Background(), act.ID)
	if err != nil {
		t.Fatal(err)
	}
	requester := got.VoteOf(memberID(t, demo, "operator"))
	if requester == nil {
		t.Fatal("the requester's vote is not shown")
	}
	if c := api.CheckVote(*got, *requester); c.State == api.VoteVerified {
		t.Errorf("intent shown with userTagName EVIL-tag twice (signed: benign-tag): requester's vote %+v, want FAILED", c)
	}
}

// An intent read exactly (WithExactStrings) whose notes show the text
// `\n` where a line break was signed FAILS: only a record the client
// escaped as it decoded it is compared as escaped.
func TestExactReadEscapedLookalikeFails(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()
	act, err := demo.Client("operator").CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "p", Effect: "EFFECT_ALLOW", Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'", Consensus: "approvers.any(user, user.id == 'x')", Notes: "line one\nline two"})
	if err != nil {
		t.Fatal(err)
	}
	proxy := demo.Rewriting(func(op string, request, reply []byte) []byte {
		if op != "query/"+api.QueryGetActivity {
			return reply
		}
		return []byte(strings.Replace(string(reply), `"notes":"line one\nline two"`, `"notes":"line one\\nline two"`, 1))
	})
	got, err := demo.ClientAt(proxy, "alice", api.WithExactStrings()).GetActivity(ctx, act.ID)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range api.CheckVotes(*got) {
		if i == 0 && c.State == api.VoteVerified {
			t.Errorf("read exactly, notes shown as the text \\n (signed: a line break): %+v, want FAILED", c)
		}
	}
}
