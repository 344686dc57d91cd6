package screens

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// memberIDOf is the demo member's user id.
func memberIDOf(t testing.TB, d *servertest.Demo, name string) string {
	t.Helper()
	for _, m := range d.Info.Members {
		if m.Name == name {
			return m.UserID
		}
	}
	t.Fatalf("no demo member %s", name)
	return ""
}

// votedTagFor has the operator request a tag and alice (a root member)
// approve it: the activity waits for another root approval with two votes.
func votedTagFor(t testing.TB, d *servertest.Demo, name string) *api.Activity {
	t.Helper()
	ctx := context.Background()
	a, err := d.Client("operator").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: name, UserIDs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := d.Client("alice").ApproveActivity(ctx, a.Fingerprint)
	if err != nil || got.Status != api.StatusConsensusNeeded {
		t.Fatalf("set-up: %v %+v", err, got)
	}
	return got
}

// carolVia is carol's console through a proxy that rewrites the activity's
// get_activity reply (its "activity" object) with change.
func carolVia(t *testing.T, d *servertest.Demo, id string, change func(a map[string]any)) *harness {
	t.Helper()
	url := d.URL
	if change != nil {
		url = d.Rewriting(func(op string, request, reply []byte) []byte {
			if op != "query/"+api.QueryGetActivity || !strings.Contains(string(request), id) {
				return reply
			}
			var m map[string]map[string]any
			if json.Unmarshal(reply, &m) != nil {
				return reply
			}
			change(m["activity"])
			out, _ := json.Marshal(m)
			return out
		})
	}
	carol := d.ClientAt(url, "carol", api.WithExactStrings())
	h := newHarnessWith(t, carol, carol, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 200, Height: 300})
	h.selectActivityID(id)
	h.key("enter")
	return h
}

// The requester's vote is the evidence of what she asked: the console says
// the intent shown is the one she signed, and FAILS her vote when a proxy
// shows the tag under another name.
func TestConsoleSaysWhetherTheIntentShownWasSigned(t *testing.T) {
	d := servertest.StartDemo(t)
	a := votedTagFor(t, d, "signed-intent")
	text := carolVia(t, d, a.ID, nil).detailText()
	if !strings.Contains(text, "intent shown are the ones its requester signed") {
		t.Errorf("as sent, the detail does not say the intent shown is the one signed:\n%s", text)
	}
	text = carolVia(t, d, a.ID, func(m map[string]any) {
		m["intent"] = map[string]any{"createUserTagIntent": map[string]any{"userTagName": "admins", "userIds": []string{}}}
	}).detailText()
	if !strings.Contains(text, "FAILED its signature check") || !strings.Contains(text, "intent shown differs from the signed submission in userTagName") {
		t.Errorf("under a renamed tag, the requester's vote does not fail naming the field:\n%s", text)
	}
}

// Alice's one signed approval shown also as bob's: both copies FAIL
// in the detail, and the vote dialog warns that neither counts.
func TestConsoleFailsOneSignatureShownAsTwoVotes(t *testing.T) {
	d := servertest.StartDemo(t)
	a := votedTagFor(t, d, "copied-vote")
	aliceID, bobID := memberIDOf(t, d, "alice"), memberIDOf(t, d, "bob")
	h := carolVia(t, d, a.ID, func(m map[string]any) {
		votes := m["votes"].([]any)
		for _, v := range votes {
			if v := v.(map[string]any); v["userId"] == aliceID {
				dup := map[string]any{}
				for k, x := range v {
					dup[k] = x
				}
				dup["userId"], dup["id"], dup["user"] = bobID, "forged-vote-id", map[string]any{"userId": bobID, "userName": "bob"}
				m["votes"] = append(votes, dup)
				return
			}
		}
	})
	text := h.detailText()
	if n := strings.Count(text, "also shown as another member's vote"); n != 2 {
		t.Errorf("want both copies of alice's signature FAILED, %d are:\n%s", n, text)
	}
	h.key("a")
	if !h.voteDialogOpen() {
		t.Fatalf("set-up: no approve dialog:\n%s", h.frame())
	}
	if f := h.frame(); !strings.Contains(f, `WARNING: the vote of "alice", "bob" FAILED its signature check`) {
		t.Errorf("the vote dialog does not warn that both copies failed:\n%s", f)
	}
}

// Alice's approval relabelled as bob's (one copy, so its signature
// verifies): the console holds the users and says the key is not one of
// bob's; shown as hers, her vote names her key.
func TestConsoleWarnsAVerifiedVoteByAnotherUsersKey(t *testing.T) {
	d := servertest.StartDemo(t)
	a := votedTagFor(t, d, "relabelled-vote")
	aliceID, bobID := memberIDOf(t, d, "alice"), memberIDOf(t, d, "bob")
	h := carolVia(t, d, a.ID, nil)
	if text := h.detailText(); !strings.Contains(text, `by one of "alice"'s API keys`) {
		t.Errorf("alice's genuine vote does not name her key:\n%s", text)
	}
	h = carolVia(t, d, a.ID, func(m map[string]any) {
		for _, v := range m["votes"].([]any) {
			if v := v.(map[string]any); v["userId"] == aliceID {
				v["userId"], v["user"] = bobID, map[string]any{"userId": bobID, "userName": "bob"}
			}
		}
	})
	if text := h.detailText(); !strings.Contains(text, `the key is not one of "bob"'s API keys or passkeys`) {
		t.Errorf("alice's vote shown as bob's is not flagged:\n%s", text)
	}
}

// manyVotes is a verified approval of a copied n times (the same voter).
func manyVotes(t testing.TB, a *api.Activity, n int) api.Activity {
	t.Helper()
	var base *api.Vote
	for i := range a.Votes {
		if c := api.CheckVote(*a, a.Votes[i]); c.State == api.VoteVerified && a.Votes[i].Selection == api.VoteApproved {
			base = &a.Votes[i]
		}
	}
	if base == nil {
		t.Fatalf("set-up: no verified vote: %+v", a.Votes)
	}
	out := *a
	out.Votes = nil
	for i := range n {
		v := *base
		v.ID = fmt.Sprintf("vote-%d", i)
		out.Votes = append(out.Votes, v)
	}
	return out
}

// The detail's checks are computed once per record, whatever its number of
// votes (a cache that emptied at 256 re-verified every signature at every
// redraw), and a record taken anew is checked anew.
func TestDetailChecksEachRecordOnce(t *testing.T) {
	d := servertest.StartDemo(t)
	a := votedTagFor(t, d, "many-votes")
	many := manyVotes(t, a, 300)
	det := &activityDetail{activity: many}
	first, _ := det.voteChecksOf(&Common{})
	second, _ := det.voteChecksOf(&Common{})
	if len(first) != 300 || &first[0] != &second[0] {
		t.Fatalf("the checks of one record were computed again (or not for every vote: %d)", len(first))
	}
	redated := many
	redated.Votes = append([]api.Vote{}, many.Votes...)
	redated.Votes[0].CreatedAt = api.NewTime(redated.Votes[0].CreatedAt.Time().Add(-24 * 3600e9))
	det.take(redated, copyOrder{})
	if got, _ := det.voteChecksOf(&Common{}); got[0].State != api.VoteFailed || got[1].State != api.VoteVerified {
		t.Errorf("a new record's checks: %+v, %+v; want the re-dated vote FAILED", got[0], got[1])
	}
}

// A redraw of the open detail of an activity with 2,000 votes (a few MB a
// hostile service may send): the signatures are not verified again.
//
//	go test -run '^$' -bench BenchmarkDetailRedraw2000Votes ./screens/
func BenchmarkDetailRedraw2000Votes(b *testing.B) {
	d := servertest.StartDemo(b)
	a := votedTagFor(b, d, "bench-votes")
	many := manyVotes(b, a, 2000)
	fake := &fakeClient{activities: []api.Activity{many}}
	h := newHarness(b, fake, false, 0)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	h.key("enter")
	det := h.activities().detail
	if det == nil {
		b.Fatal("the detail did not open")
	}
	for b.Loop() {
		det.render(h.root.common)
		_ = h.root.Render()
	}
}
