package cli

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// promptOf is the approve prompt's text above its question for member's
// vote on activity id, as client reads it.
func promptOf(t *testing.T, client *api.Client, id string) string {
	t.Helper()
	a, err := getActivityShown(t.Context(), client, id)
	if err != nil {
		t.Fatal(err)
	}
	return voteDetails(t.Context(), proc{stdin: strings.NewReader(""), stdout: &strings.Builder{}, stderr: &strings.Builder{}, getenv: func(string) string { return "" }}, client, a)
}

// A completed key deletion's keys are gone from the user list because it
// ran: the print after the deciding vote, activity get and activity wait
// mark them deleted by it, and warn of nothing (a warning there would read
// as if the member had approved the wrong keys). Against the local service.
func TestCompletedKeyDeletionMarksItsKeysDeletedNotMissing(t *testing.T) {
	e := newVerbEnv(t)
	operator, old := e.userID("operator"), e.keyNamed("operator", "operator CI key (old)")
	act, err := e.client("bob").DeleteAPIKeys(context.Background(), api.DeleteAPIKeysParams{UserID: operator, APIKeyIDs: []string{old}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("set-up: a pending key deletion: %v %+v", err, act)
	}
	want := []string{`user: "operator" (` + operator + ")", "API key: " + old + " (deleted by this activity)"}
	check := func(what, out string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s lacks %q:\n%s", what, w, out)
			}
		}
		if strings.Contains(out, "WARNING: API key") {
			t.Errorf("%s warns of a key the completed deletion deleted:\n%s", what, out)
		}
	}
	code, out, errOut := e.run("", "activity", "approve", "--yes", "--profile", "carol", act.ID)
	wantExit(t, "activity approve --yes", code, 0, out, errOut)
	if !strings.Contains(out, api.StatusCompleted) {
		t.Fatalf("set-up: carol's approval did not complete the deletion:\n%s", out)
	}
	check("the print after the deciding vote", out)
	code, out, errOut = e.run("", "activity", "get", act.ID)
	wantExit(t, "activity get", code, 0, out, errOut)
	check("activity get", out)
	code, out, errOut = e.run("", "activity", "wait", act.ID)
	wantExit(t, "activity wait", code, 0, out, errOut)
	check("activity wait", out)
}

// A member's name is quoted wherever the CLI names one among an intent's
// ids, as the console does: a plain name written as vigil's words then
// still reads as a name.
func TestIntentNamesQuoteAMemberNameThatReadsAsVigilsWords(t *testing.T) {
	e := newVerbEnv(t)
	posing := "alice (root member; this invitation only adds a read-only viewer) x"
	id := e.demo.AddUserWithKeys(posing, 1, 0)
	inv, err := e.client("alice").CreateInvitations(context.Background(), api.CreateInvitationsParams{Invitations: []api.Invitation{{
		ReceiverUserName: "eve", ReceiverUserEmail: "eve@example.com", ReceiverUserTags: []string{},
		AccessType: api.AccessTypeAll, SenderUserID: id}}})
	if err != nil {
		t.Fatal(err)
	}
	const noKey = "01a22a4c-0000-7000-8000-0000000000ff"
	del, err := e.client("bob").DeleteAPIKeys(context.Background(), api.DeleteAPIKeysParams{UserID: id, APIKeyIDs: []string{noKey}})
	if err != nil {
		t.Fatal(err)
	}
	carol := e.client("carol")
	if p, w := promptOf(t, carol, inv.ID), `[1] sender: "`+posing+`" (`+id+")"; !strings.Contains(p, w) {
		t.Errorf("the invitation's prompt lacks %q:\n%s", w, p)
	}
	p := promptOf(t, carol, del.ID)
	for _, w := range []string{`user: "` + posing + `" (` + id + ")", `is not among "` + posing + `"'s API keys`} {
		if !strings.Contains(p, w) {
			t.Errorf("the key deletion's prompt lacks %q:\n%s", w, p)
		}
	}
}

// Without the user list (its read failed), the prompt says a key
// deletion's user and keys are not named, as it says of an invitation's
// sender, rather than nothing. Against the local service behind a proxy
// that makes list_users unreadable.
func TestKeyDeletionPromptSaysItsUserIsNotNamedWhenTheListIsUnread(t *testing.T) {
	e := newVerbEnv(t)
	operator, old := e.userID("operator"), e.keyNamed("operator", "operator CI key (old)")
	del, err := e.client("bob").DeleteAPIKeys(context.Background(), api.DeleteAPIKeysParams{UserID: operator, APIKeyIDs: []string{old}})
	if err != nil || del.Status != api.StatusConsensusNeeded {
		t.Fatalf("set-up: %v %+v", err, del)
	}
	unreadable := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		if op == "query/"+api.QueryListUsers {
			return []byte(`{"users": 5}`)
		}
		return reply
	})
	p := promptOf(t, e.demo.ClientAt(unreadable, "carol"), del.ID)
	if w := "user " + operator + " and its keys: not named: the organization's user list was not read"; !strings.Contains(p, w) {
		t.Errorf("the prompt lacks %q:\n%s", w, p)
	}
}

// In a later 24-hour voting round no requester is known, so the prompt
// reads no user list for one; it reads it to name a key deletion's user
// and keys all the same.
func TestLaterRoundPromptNamesAKeyDeletionsUserAndKeys(t *testing.T) {
	var offset atomic.Int64
	clock := func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	e := newVerbEnvOn(t, clock)
	operator, old := e.userID("operator"), e.keyNamed("operator", "operator CI key (old)")
	del, err := e.demo.ClientAt(e.demo.URL, "bob", api.WithClock(clock)).DeleteAPIKeys(context.Background(), api.DeleteAPIKeysParams{UserID: operator, APIKeyIDs: []string{old}})
	if err != nil || del.Status != api.StatusConsensusNeeded {
		t.Fatalf("set-up: %v %+v", err, del)
	}
	offset.Store(int64(25 * time.Hour))
	p := promptOf(t, e.demo.ClientAt(e.demo.URL, "carol", api.WithClock(clock)), del.ID)
	if !strings.Contains(p, "requester: ?") {
		t.Fatalf("set-up: the prompt knows a requester in the later round:\n%s", p)
	}
	for _, w := range []string{`user: "operator" (` + operator + ")", `API key: "operator CI key (old)" (` + old + ")"} {
		if !strings.Contains(p, w) {
			t.Errorf("the later round's prompt lacks %q:\n%s", w, p)
		}
	}
}
