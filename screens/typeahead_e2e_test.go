package screens

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// Keys typed in one burst never answer a confirm they opened: the audit's
// "/daisy" in an open user record proposed deleting the user's API keys, and
// "/expiry" in an open activity cast a reject vote.

// pendingOf counts the activities of type typ waiting for consensus.
func pendingOf(t *testing.T, c *api.Client, typ string) int {
	t.Helper()
	acts, err := c.ListActivities(context.Background(), api.ListActivitiesOptions{
		Statuses: []string{api.StatusConsensusNeeded}, Types: []string{typ}, Limit: 100})
	if err != nil {
		t.Fatalf("list %s: %v", typ, err)
	}
	return len(acts)
}

func TestEndToEndSlashWordInUserRecordFiltersTheList(t *testing.T) {
	d := servertest.StartDemo(t)
	alice := d.Client("alice")
	before := pendingOf(t, alice, api.TypeDeleteAPIKeys)
	h := newHarnessWith(t, alice, alice, theme.Options{Dark: true, NoColor: true}, 0)
	u := h.selectUser("operator")
	if sel := u.selected(); sel == nil || sel.UserName != "operator" {
		t.Fatalf("operator is not listed:\n%s", h.frame())
	}
	h.key("enter")
	if u.open == nil {
		t.Fatalf("the record did not open:\n%s", h.frame())
	}
	h.typeAhead(strings.Split("/daisy", "")...)
	if got := pendingOf(t, alice, api.TypeDeleteAPIKeys); got != before {
		t.Fatalf("typing /daisy in a user record proposed a deletion (%d pending, was %d):\n%s", got, before, h.frame())
	}
	if h.root.dialogs.Len() != 0 {
		t.Errorf("a dialog opened from typing a search:\n%s", h.frame())
	}
	if u.open != nil || !u.list.Filtering() || u.list.Table.FilterPattern() != "daisy" {
		t.Errorf("/daisy did not close the record and filter the list by \"daisy\":\n%s", h.frame())
	}
}

func TestEndToEndSlashWordInActivityRecordCastsNoVote(t *testing.T) {
	d := servertest.StartDemo(t)
	alice := d.Client("alice")
	act, err := alice.CreateUserTag(context.Background(), api.CreateUserTagParams{UserTagName: "typeahead", UserIDs: []string{d.Info.Members[0].UserID}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", act, err)
	}
	bob := d.Client("bob")
	h := newHarnessWith(t, bob, bob, theme.Options{Dark: true, NoColor: true}, 0)
	h.selectActivityID(act.ID)
	h.key("enter")
	if h.activities().detail == nil {
		t.Fatalf("the activity did not open:\n%s", h.frame())
	}
	h.typeAhead(strings.Split("/expiry", "")...)
	got, err := alice.GetActivity(context.Background(), act.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Votes) != len(act.Votes) || h.activities().voting != "" {
		t.Fatalf("typing /expiry in an open activity voted: %+v\n%s", got.Votes, h.frame())
	}
	if h.activities().detail != nil || !h.activities().list.Filtering() {
		t.Errorf("/ in the open activity did not go back to the list's filter:\n%s", h.frame())
	}
}

// The confirm itself: d and y typed together open the deletion's question and
// leave it open, saying why the y did not count; a y typed once the question
// shows proposes the deletion.
func TestEndToEndTypedAheadYesDoesNotConfirmDeletion(t *testing.T) {
	d := servertest.StartDemo(t)
	alice := d.Client("alice")
	before := pendingOf(t, alice, api.TypeDeleteAPIKeys)
	h := newHarnessWith(t, alice, alice, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 120, Height: 36})
	u := h.selectUser("operator")
	h.key("enter")
	if u.open == nil || len(u.open.APIKeys) == 0 {
		t.Fatalf("no operator record with keys:\n%s", h.frame())
	}
	h.cursorToKeyWithoutPendingDeletion(u)
	h.typeAhead("d", "y")
	if top := h.root.dialogs.Top(); top == nil || top.ID() != deleteKeysDialogID {
		t.Fatalf("the deletion's question is not open after d y typed together:\n%s", h.frame())
	}
	if got := pendingOf(t, alice, api.TypeDeleteAPIKeys); got != before {
		t.Fatalf("a y typed with d proposed the deletion (%d pending, was %d)", got, before)
	}
	if frame := h.frame(); !strings.Contains(frame, "press y again: keys typed before this question appeared") {
		t.Errorf("the dialog does not say why y did nothing:\n%s", frame)
	}
	h.key("y")
	if got := pendingOf(t, alice, api.TypeDeleteAPIKeys); got != before+1 {
		t.Fatalf("y after the question showed did not propose the deletion (%d pending, was %d):\n%s", got, before, h.frame())
	}
}

// A vote: x and y typed together leave the question open and cast nothing;
// y once it shows casts the reject vote.
func TestEndToEndTypedAheadYesCastsNoVote(t *testing.T) {
	d := servertest.StartDemo(t)
	alice := d.Client("alice")
	act, err := alice.CreateUserTag(context.Background(), api.CreateUserTagParams{UserTagName: "typeahead-vote", UserIDs: []string{d.Info.Members[0].UserID}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", act, err)
	}
	bob := d.Client("bob")
	h := newHarnessWith(t, bob, bob, theme.Options{Dark: true, NoColor: true}, 0)
	h.selectActivityID(act.ID)
	h.typeAhead("x", "y")
	votes := func() int {
		t.Helper()
		got, err := alice.GetActivity(context.Background(), act.ID)
		if err != nil {
			t.Fatal(err)
		}
		return len(got.Votes)
	}
	if n := votes(); n != len(act.Votes) || !h.voteDialogOpen() {
		t.Fatalf("x y typed together: %d votes (was %d), dialog open %v:\n%s", n, len(act.Votes), h.voteDialogOpen(), h.frame())
	}
	h.key("y")
	if n := votes(); n != len(act.Votes)+1 {
		t.Fatalf("y once the question showed did not vote (%d votes, was %d):\n%s", n, len(act.Votes), h.frame())
	}
}
