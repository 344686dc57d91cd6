package screens

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// detailText is the whole text of the open detail, as a tall pane shows it.
func (h *harness) detailText() string {
	h.t.Helper()
	d := h.activities().detail
	if d == nil {
		h.t.Fatalf("no activity is open:\n%s", h.frame())
	}
	pane := *d.pane // a copy: the screen's pane keeps its size and position
	pane.SetSize(200, 1000)
	return pane.View()
}

// Your own vote that completes the open activity brings the evaluation that
// decided it, without a refresh, and leaves the reader where they were (at the
// end, where the evaluations are). Against the local service.
func TestEndToEndOwnVoteShowsTheDecidingEvaluation(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	act, err := d.Client("alice").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "fresh-after-vote", UserIDs: []string{d.Info.Members[0].UserID}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", act, err)
	}
	bob := d.Client("bob")
	h := newHarnessWith(t, bob, bob, theme.Options{Dark: true, NoColor: true}, 0)
	h.selectActivityID(act.ID)
	h.key("enter")
	if out := h.detailText(); !strings.Contains(out, "Policy evaluations (1)") || strings.Contains(out, "ALLOW") {
		t.Fatalf("before the vote the detail should show the requester's evaluation only:\n%s", out)
	}
	for range 20 {
		if h.activities().list.Pane.Position() == "end" {
			break
		}
		h.key("f")
	}
	if pos := h.activities().list.Pane.Position(); pos != "end" {
		t.Fatalf("could not scroll to the end of the detail (at %q):\n%s", pos, h.frame())
	}
	h.key("a")
	h.key("y")
	if !h.toasted("approved CREATE_USER_TAG: now COMPLETED") {
		t.Fatalf("the vote did not complete the activity:\n%s", h.frame())
	}
	out := h.detailText()
	if !strings.Contains(out, "Policy evaluations (2)") || !strings.Contains(out, `ALLOW  allowed by root quorum ("alice", "bob")`) {
		t.Errorf("after the deciding vote the detail lacks its evaluation:\n%s", out)
	}
	if strings.Contains(out, "MFA status") {
		t.Errorf("a completed activity still shows the MFA status of when it waited:\n%s", out)
	}
	if pos := h.activities().list.Pane.Position(); pos != "end" {
		t.Errorf("the vote moved the reader from the end to %q:\n%s", pos, h.frame())
	}
}

// An MFA status that is not satisfied says what it means for the operator:
// on the local service votes decide and nothing is held back; a service that
// holds the activity for MFA (AUTHENTICATORS_NEEDED) is said to, and in both
// the console says it can vote with its API key only. Against the local
// service, and through a proxy that reports the activity held.
func TestEndToEndMfaStatusSaysWhatItMeans(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	alice := d.Client("alice")
	act, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "mfa-meaning", UserIDs: []string{d.Info.Members[0].UserID}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", act, err)
	}
	open := func(t *testing.T, c *api.Client) string {
		t.Helper()
		h := newHarnessWith(t, c, c, theme.Options{Dark: true, NoColor: true}, 0)
		h.selectActivityID(act.ID)
		h.key("enter")
		out := h.detailText()
		if !strings.Contains(out, "NOT satisfied — alice") {
			t.Fatalf("the detail lacks alice's unsatisfied MFA status:\n%s", out)
		}
		return out
	}
	t.Run("local service", func(t *testing.T) {
		out := open(t, alice)
		if !strings.Contains(out, "Reported by the service, which does not hold this activity back for it: votes decide. This console votes with its API key only.") {
			t.Errorf("the MFA status does not say what it means:\n%s", out)
		}
	})
	t.Run("held for MFA", func(t *testing.T) {
		held := d.Rewriting(func(op string, request, reply []byte) []byte {
			if op != "query/get_activity" {
				return reply
			}
			return []byte(strings.ReplaceAll(string(reply), api.StatusConsensusNeeded, api.StatusAuthenticatorsNeeded))
		})
		out := open(t, d.ClientAt(held, "alice"))
		if !strings.Contains(out, api.StatusAuthenticatorsNeeded) {
			t.Fatalf("the proxy did not report the activity held:\n%s", out)
		}
		if !strings.Contains(out, "The service holds this activity until each step is satisfied") ||
			!strings.Contains(out, "this console votes with its API key only") {
			t.Errorf("the MFA status of a held activity does not say it is held:\n%s", out)
		}
	})
}

// The command the detail gives for a read-only session's hidden token names
// the config and profile the console runs on, quoted for the shell where the
// path needs it (a shell would otherwise split it or run what it holds).
// Against the local service.
func TestEndToEndSessionHintQuotesTheConfigPath(t *testing.T) {
	d := servertest.StartDemo(t)
	act, err := d.Client("alice").CreateReadOnlySession(context.Background())
	if err != nil || act.Result.CreateReadOnlySessionResult == nil {
		t.Fatalf("create_read_only_session: %+v %v", act, err)
	}
	alice := d.Client("alice")
	h := newHarnessWith(t, alice, alice, theme.Options{Dark: true, NoColor: true}, 0)
	h.root.common.ConfigPath = "/tmp/it's $HOME/config.toml"
	h.send(ShowActivityMsg{ID: act.ID, Activity: act})
	text := strings.Join(strings.Fields(h.detailText()), " ")
	want := `session token: hidden; printed by: vigil activity get --json --config '/tmp/it'\''s $HOME/config.toml' --profile demo ` + act.ID
	if !strings.Contains(text, want) {
		t.Errorf("want %s in:\n%s", want, text)
	}
}

// A submit that completes at once (a read-only session) opens in the detail
// but is not added to "Pending activities needing consensus": that list
// shows only what its filter takes. Against the local service.
func TestEndToEndCompletedSubmitIsNotListedAsPending(t *testing.T) {
	d := servertest.StartDemo(t)
	alice := d.Client("alice")
	h := memberConsole(t, alice)
	openOperation(h, "create read only session")
	h.submitAndConfirm()
	a := h.activities()
	if a.detail == nil || a.detail.activity.Type != api.TypeCreateReadOnlySession || a.detail.activity.Status != api.StatusCompleted {
		t.Fatalf("the completed session is not open in the detail:\n%s", h.frame())
	}
	id := a.detail.activity.ID
	h.key("esc")
	for _, it := range a.items {
		if it.ID == id || it.Status != api.StatusConsensusNeeded {
			t.Errorf("the Pending list holds %s (%s):\n%s", it.ID, it.Status, h.frame())
		}
	}
	if out := h.frame(); strings.Contains(out, "create a read-only session") {
		t.Errorf("the completed session is listed as pending:\n%s", out)
	}
}

// A list fetched before your vote and answered after it does not undo the
// vote in the open detail. Against the local service.
func TestEndToEndStaleListDoesNotUndoYourVote(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	act, err := d.Client("alice").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "stale-list", UserIDs: []string{d.Info.Members[0].UserID}})
	if err != nil {
		t.Fatal(err)
	}
	bob := d.Client("bob")
	before, err := bob.ListActivities(ctx, api.ListActivitiesOptions{Statuses: []string{api.StatusConsensusNeeded}, Limit: pageSize})
	if err != nil {
		t.Fatal(err)
	}
	h := newHarnessWith(t, bob, bob, theme.Options{Dark: true, NoColor: true}, 0)
	h.selectActivityID(act.ID)
	h.key("enter")
	h.key("a")
	h.key("y")
	a := h.activities()
	if a.detail.activity.Status != api.StatusCompleted {
		t.Fatalf("the vote did not complete it:\n%s", h.frame())
	}
	a.listGen++ // the reply of a load issued before the vote
	a.loading = true
	h.send(activitiesLoadedMsg{gen: a.listGen, items: before, at: testNow})
	if got := a.detail.activity; got.Status != api.StatusCompleted || len(got.Votes) != 2 {
		t.Errorf("a list from before the vote undid it in the detail: %s with %d votes", got.Status, len(got.Votes))
	}
}
