package screens

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// submitFeatureFromConsole sets the webhook URL on the Organization screen, as
// a user does, and returns the activity it submitted (it waits for bob).
func submitFeatureFromConsole(t *testing.T, h *harness) api.Activity {
	t.Helper()
	h.gotoScreen("Organization")
	h.key("s")
	h.pickFeature(api.FeatureWebhook)
	h.key("tab")
	h.typeText("https://hooks.example.com/fresh")
	h.send(ctrlS)
	h.key("y")
	for _, m := range h.msgs {
		if s, ok := m.(featureSubmittedMsg); ok && s.err == nil && s.activity != nil {
			return *s.activity
		}
	}
	t.Fatalf("the feature was not submitted:\n%s", h.frame())
	return api.Activity{}
}

// The MFA screen's status for pending activities and the Policies screen's
// recent evaluations were loaded before the console submitted: shown again,
// they include the new activity without r (the audit's "(3) while Pending
// has 5").
func TestEndToEndScreensLoadedEarlierShowTheConsolesOwnSubmit(t *testing.T) {
	d := servertest.StartDemo(t)
	h := demoHarness(t, d, nil)
	h.gotoScreen("MFA policies")
	m := h.mfa()
	if m.fetched.IsZero() || len(m.statuses) == 0 {
		t.Fatalf("the MFA screen should show alice's status for the demo's pending activities:\n%s", h.frame())
	}
	before := len(m.statuses)
	p := h.toPolicies()
	h.key("e")
	if !p.evals || !p.recentLoaded {
		t.Fatalf("e should show the recent evaluations:\n%s", h.frame())
	}

	act := submitFeatureFromConsole(t, h)
	if act.Status != api.StatusConsensusNeeded {
		t.Fatalf("the submit should wait for votes, is %s", act.Status)
	}

	h.gotoScreen("MFA policies")
	if !slices.ContainsFunc(m.statuses, func(s mfaActivityStatus) bool { return s.activity.ID == act.ID }) {
		t.Errorf("the MFA screen does not list the console's own submit %s (%d statuses, %d before):\n%s", act.ID, len(m.statuses), before, h.frame())
	}
	if want := len(m.statuses); !strings.Contains(h.frame(), "for pending activities (") || want != before+1 {
		t.Errorf("MFA status for %d pending activities, want %d:\n%s", want, before+1, h.frame())
	}
	h.gotoScreen("Policies")
	if !slices.ContainsFunc(p.data.recent, func(r recentActivity) bool { return r.act.ID == act.ID }) {
		t.Errorf("the recent evaluations do not include the console's own submit %s:\n%s", act.ID, h.frame())
	}
	if out := h.frame(); !strings.Contains(out, api.SanitizeID(act.ID)[:8]) {
		t.Errorf("the evaluations view does not show %s:\n%s", act.ID, out)
	}
}

// tickedHarness is demoHarness (alice) with auto-refresh on: the delayed
// messages the screens schedule are kept, and fireTicks delivers them, as the
// program does when the interval has passed.
type tickedHarness struct {
	*harness
	ticks []func() tea.Msg
}

func newTickedHarness(t *testing.T, d *servertest.Demo) *tickedHarness {
	t.Helper()
	th := &tickedHarness{}
	c := d.Client("alice")
	r := NewRoot(Options{Reader: c, Submitter: c, Profile: "demo", Theme: theme.Options{Dark: true, NoColor: true},
		Refresh: 5 * time.Second, Static: true,
		Tick: func(d time.Duration, f func(time.Time) tea.Msg) tea.Cmd {
			th.ticks = append(th.ticks, func() tea.Msg { return f(testNow.Add(d)) })
			return nil
		}})
	th.harness = &harness{t: t, root: r}
	th.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	th.run(r.Init())
	return th
}

// fireTicks delivers every delayed message scheduled so far, once.
func (th *tickedHarness) fireTicks() {
	th.t.Helper()
	due := th.ticks
	th.ticks = nil
	for _, f := range due {
		th.send(f())
	}
}

// A deletion another member proposes while a user's record is open is marked
// in the record by the next auto-refresh, not only when the record is opened
// again: d would otherwise propose a duplicate the confirm does not warn of.
func TestEndToEndOpenUserRecordFollowsPendingDeletions(t *testing.T) {
	d := servertest.StartDemo(t)
	h := newTickedHarness(t, d)
	u := h.openUser("operator")
	keyID := h.cursorToKeyWithoutPendingDeletion(u)
	act, err := d.Client("bob").DeleteAPIKeys(context.Background(), api.DeleteAPIKeysParams{UserID: u.open.UserID, APIKeyIDs: []string{keyID}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("bob proposes deleting the key: %+v %v", act, err)
	}
	h.fireTicks()
	if got, ok := u.pendingDeletes[keyID]; !ok || got.ID != act.ID {
		t.Fatalf("after an auto-refresh the record does not know bob's deletion %s of key %s:\n%s", act.ID, keyID, h.frame())
	}
	if out := h.frame(); !strings.Contains(out, "pending deletion: activity "+api.SanitizeID(act.ID)) {
		t.Errorf("the record does not mark the key with bob's deletion:\n%s", out)
	}
	h.key("esc")
	h.fireTicks()
	for _, f := range h.ticks {
		if _, ok := f().(pendingRefreshMsg); ok {
			t.Errorf("a closed record keeps refreshing its pending deletions")
		}
	}
}

// scheduledPendingRefresh reports whether a refresh of the open record's
// pending deletions is scheduled (checking a tick delivers nothing).
func (th *tickedHarness) scheduledPendingRefresh() bool {
	for _, f := range th.ticks {
		if _, ok := f().(pendingRefreshMsg); ok {
			return true
		}
	}
	return false
}

// The open record polls its pending deletions only while Users is the screen
// showing, and the status bar says it refreshes: a hidden tab reads nothing
// at each interval, and shown again it reads what changed meanwhile at once
// and polls again.
func TestEndToEndOpenUserRecordPollsOnlyWhileShown(t *testing.T) {
	d := servertest.StartDemo(t)
	h := newTickedHarness(t, d)
	u := h.openUser("operator")
	if out := h.frame(); !strings.Contains(out, "auto 5s") {
		t.Errorf("the status bar does not say the open record refreshes every 5s:\n%s", out)
	}
	keyID := h.cursorToKeyWithoutPendingDeletion(u)

	h.key("@Activities")
	act, err := d.Client("bob").DeleteAPIKeys(context.Background(), api.DeleteAPIKeysParams{UserID: u.open.UserID, APIKeyIDs: []string{keyID}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("bob proposes deleting the key: %+v %v", act, err)
	}
	for range 2 {
		h.fireTicks()
	}
	if _, ok := u.pendingDeletes[keyID]; ok {
		t.Errorf("the hidden Users screen read the pending deletions at an auto-refresh")
	}
	if h.scheduledPendingRefresh() {
		t.Errorf("the hidden Users screen keeps polling its open record")
	}

	h.key("@Users")
	if got, ok := u.pendingDeletes[keyID]; !ok || got.ID != act.ID {
		t.Errorf("shown again, the record does not read bob's deletion %s at once:\n%s", act.ID, h.frame())
	}
	if !h.scheduledPendingRefresh() {
		t.Errorf("shown again, the record does not poll again")
	}
	if out := h.frame(); !strings.Contains(out, "auto 5s") {
		t.Errorf("the status bar does not say the record refreshes again:\n%s", out)
	}
}

// After your own vote the list row shows the activity's new status at once,
// and a refresh that was fetched before the vote and is answered after it
// does not put the old status back (in the Pending and the All view).
func TestEndToEndRowKeepsYourVoteOverAListFetchedBeforeIt(t *testing.T) {
	for _, all := range []bool{false, true} {
		t.Run(map[bool]string{false: "pending", true: "all"}[all], func(t *testing.T) {
			d := servertest.StartDemo(t)
			act, h := proposedForBob(t, d, "fresh-row")
			a := h.activities()
			if all {
				h.key("v")
			}
			h.selectActivityID(act.ID)
			// r is pressed; its list is fetched now, and its reply is held.
			_, cmd := h.root.Update(keyPress("r"))
			fetchedBefore := collect(cmd)
			h.key("a")
			h.key("y")
			row := func() api.Activity {
				for _, it := range a.items {
					if it.ID == act.ID {
						return it
					}
				}
				t.Fatalf("activity %s is not listed:\n%s", act.ID, h.frame())
				return api.Activity{}
			}
			voted := row()
			if voted.Status == api.StatusConsensusNeeded || len(voted.Votes) != len(act.Votes)+1 {
				t.Fatalf("after bob's approval the row shows %s with %d votes:\n%s", voted.Status, len(voted.Votes), h.frame())
			}
			for _, m := range fetchedBefore {
				h.send(m)
			}
			if got := row(); got.Status != voted.Status || len(got.Votes) != len(voted.Votes) {
				t.Errorf("the list fetched before the vote put back %s with %d votes (after the vote: %s, %d):\n%s",
					got.Status, len(got.Votes), voted.Status, len(voted.Votes), h.frame())
			}
			if out := h.frame(); !strings.Contains(out, shortStatus(voted.Status)) {
				t.Errorf("the list does not show %s:\n%s", shortStatus(voted.Status), out)
			}
		})
	}
}

// a and y typed in one burst: the y arrives before the vote's confirm (the a
// asked for it with a command), and must not act on the list below (y copies
// the activity's id there), nor answer the confirm once it appears.
func TestEndToEndKeyTypedBeforeTheConfirmAppearsActsOnNothing(t *testing.T) {
	d := servertest.StartDemo(t)
	act, h := proposedForBob(t, d, "burst")
	h.selectActivityID(act.ID)
	_, openVote := h.root.Update(keyPress("a"))
	_, afterY := h.root.Update(keyPress("y"))
	h.run(afterY)
	h.run(openVote) // the confirm arrives after the y
	if got := h.clipboard(); len(got) != 0 {
		t.Errorf("the y typed before the confirm appeared acted on the list (copied %q)", got)
	}
	if !h.voteDialogOpen() {
		t.Fatalf("a should open the vote's confirm:\n%s", h.frame())
	}
	got, err := d.Client("bob").GetActivity(context.Background(), act.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Votes) != len(act.Votes) || h.activities().voting != "" {
		t.Fatalf("the y typed before the confirm appeared voted: %+v", got.Votes)
	}
	// Keys count again once the confirm is there: n answers No.
	h.key("n")
	if h.root.dialogs.Len() != 0 {
		t.Errorf("n did not answer the confirm:\n%s", h.frame())
	}
	h.key("y")
	if got := h.clipboard(); len(got) != 1 {
		t.Errorf("with no dialog asked for, y should copy the id again (clipboard %q)", got)
	}
}

// The open detail's own record fetch (the auto-refresh's), sent before your
// vote and answered after it, must not put the record of before the vote
// back: the vote undone, and the vote keys offered again.
func TestEndToEndDetailKeepsYourVoteOverARecordFetchedBeforeIt(t *testing.T) {
	d := servertest.StartDemo(t)
	act, h := proposedForBob(t, d, "fresh-detail")
	a := h.activities()
	h.selectActivityID(act.ID)
	h.key("enter")
	if a.detail == nil || a.detail.activity.ID != act.ID {
		t.Fatalf("the activity did not open:\n%s", h.frame())
	}
	fetchedBefore := collect(a.detail.loadRecord(a.c)) // the tick's fetch, its reply held
	h.key("a")
	h.key("y")
	voted := a.detail.activity
	if len(voted.Votes) != len(act.Votes)+1 {
		t.Fatalf("after bob's approval the detail shows %d votes, want %d:\n%s", len(voted.Votes), len(act.Votes)+1, h.frame())
	}
	for _, m := range fetchedBefore {
		h.send(m)
	}
	if got := a.detail.activity; got.Status != voted.Status || len(got.Votes) != len(voted.Votes) {
		t.Errorf("a record fetched before the vote put back %s with %d votes (after the vote: %s, %d):\n%s",
			got.Status, len(got.Votes), voted.Status, len(voted.Votes), h.frame())
	}
}

// A pending delete_api_keys that names a key under another user's id is no
// deletion of that key (the service would fail it, the key still working):
// it must not mark the key, nor keep d from proposing the real deletion.
func TestEndToEndDeletionUnderAnotherUsersIDDoesNotBlockTheKeys(t *testing.T) {
	d := servertest.StartDemo(t)
	alice := d.Client("alice")
	h := newHarnessWith(t, alice, alice, theme.Options{Dark: true, NoColor: true}, 0)
	u := h.openUser("operator")
	keyID := h.cursorToKeyWithoutPendingDeletion(u)
	cursor := u.cursor
	rogue, err := d.Client("bob").DeleteAPIKeys(context.Background(), api.DeleteAPIKeysParams{UserID: d.Info.Members[0].UserID, APIKeyIDs: []string{keyID}})
	if err != nil || rogue.Status != api.StatusConsensusNeeded {
		t.Fatalf("bob files a deletion of operator's key under another user: %+v %v", rogue, err)
	}
	if d.Info.Members[0].UserID == u.open.UserID {
		t.Fatal("the test needs a user other than operator")
	}
	h.key("esc")
	h.key("enter") // opening the record reads the pending deletions again
	for u.cursor < cursor {
		h.key("j")
	}
	if _, marked := u.pendingDeletes[keyID]; marked {
		t.Errorf("a deletion naming another user's id marks operator's key %s", keyID)
	}
	if out := h.frame(); strings.Contains(out, "pending deletion: activity "+api.SanitizeID(rogue.ID)) {
		t.Errorf("the record shows the deletion under another user's id as pending:\n%s", out)
	}
	h.key("d")
	if out := h.frame(); !strings.Contains(out, "Delete API keys?") || strings.Contains(out, "Deletion already pending") {
		t.Errorf("d does not propose the deletion:\n%s", out)
	}
}

// proposedForBob has alice propose a user tag named name, which waits for
// approvals, and returns it with a console of bob's.
func proposedForBob(t *testing.T, d *servertest.Demo, name string) (*api.Activity, *harness) {
	t.Helper()
	act, err := d.Client("alice").CreateUserTag(context.Background(), api.CreateUserTagParams{UserTagName: name, UserIDs: []string{d.Info.Members[0].UserID}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", act, err)
	}
	bob := d.Client("bob")
	return act, newHarnessWith(t, bob, bob, theme.Options{Dark: true, NoColor: true}, 0)
}
