package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// After a submit, a vote and a wait, the activity printed says whose key
// signed each verified vote as 'activity get' does (docs/cli.md): a bare
// "not checked to be this voter's" with no note reads as a failure.
func TestSubmitVoteAndWaitNameTheVotesKeyOwner(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "tag", "create", "--name", "key-owner-shown")
	wantExit(t, "tag create", code, exitOK, out, errOut)
	id := activityIDFrom(t, out)
	sameAsGet(t, e, "tag create", id, out, errOut, "alice")

	code, out, errOut = e.run("", "activity", "approve", "--yes", "--profile", "bob", id)
	wantExit(t, "activity approve", code, exitOK, out, errOut)
	sameAsGet(t, e, "activity approve", id, out, errOut, "alice", "bob")

	// Approving again after the reply was lost shows the activity too.
	code, out, errOut = e.run("", "activity", "approve", "--yes", "--profile", "bob", id)
	wantExit(t, "activity approve (again)", code, exitOK, out, errOut)
	sameAsGet(t, e, "activity approve (again)", id, out, errOut, "alice", "bob")

	if a, err := e.client("alice").GetActivity(t.Context(), id); err != nil || !api.IsTerminal(a.Status) {
		t.Fatalf("want the activity ended after bob's approval: %v %+v", err, a)
	}
	code, out, errOut = e.run("", "activity", "wait", id)
	wantExit(t, "activity wait", code, exitOK, out, errOut)
	sameAsGet(t, e, "activity wait", id, out, errOut, "alice", "bob")
}

// sameAsGet checks that each voter's vote line in out, what verb printed,
// names the key's owner, as 'activity get' prints it, with no note.
func sameAsGet(t *testing.T, e *verbEnv, verb, id, out, errOut string, voters ...string) {
	t.Helper()
	code, got, getErr := e.run("", "activity", "get", id)
	wantExit(t, "activity get", code, exitOK, got, getErr)
	for _, who := range voters {
		line, want := voteLine(t, out, who), voteLine(t, got, who)
		if !strings.Contains(want, "as the organization's user list shows") {
			t.Fatalf("activity get does not name the owner of %s's key:\n%s", who, want)
		}
		if strings.TrimSpace(line) != strings.TrimSpace(want) {
			t.Errorf("%s: %s's vote reads\n%s\nwhere activity get reads\n%s", verb, who, line, want)
		}
	}
	if strings.Contains(errOut, "note:") {
		t.Errorf("%s: a note on stderr though the users could be read:\n%s", verb, errOut)
	}
}

// A user list that cannot be read (here: it reads two ways) fails neither
// the vote nor hides that it counted: the activity is printed with the
// unchecked wording and a note on stderr says why.
func TestVoteSaysWhyTheKeyOwnerIsNotChecked(t *testing.T) {
	e := newVerbEnv(t)
	id := openTag(t, e, "key-owner-unread")
	via := e.via(rewriteUsers(func(reply map[string]any) { reply["Users"] = []any{} }))
	code, out, errOut := via.run("", "activity", "approve", "--yes", "--profile", "bob", id)
	wantExit(t, "activity approve", code, exitOK, out, errOut)
	if bob := voteLine(t, out, "bob"); !strings.Contains(bob, "[verified: ") || !strings.Contains(bob, "not checked to be this voter's") {
		t.Errorf("bob's vote is not printed with the unchecked wording:\n%s", bob)
	}
	if !strings.Contains(errOut, "vigil: note: ") || !strings.Contains(errOut, "users could not be read") || !strings.Contains(errOut, "two ways") {
		t.Errorf("stderr does not say why the keys are not checked:\n%s", errOut)
	}
	if a, err := e.client("alice").GetActivity(t.Context(), id); err != nil || a.VoteOf(e.userID("bob")) == nil {
		t.Errorf("bob's vote did not count: %v %+v", err, a)
	}
}

// rewriteUsers passes list_users' replies through change (the JSON
// decoded; returned changed), every other reply as sent.
func rewriteUsers(change func(reply map[string]any)) servertest.Rewrite {
	return func(op string, request, reply []byte) []byte {
		var m map[string]any
		if op != "query/"+api.QueryListUsers || json.Unmarshal(reply, &m) != nil {
			return reply
		}
		change(m)
		out, _ := json.Marshal(m)
		return out
	}
}
