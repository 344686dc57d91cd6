package screens

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui/theme"
)

// settle makes carol's approval complete act on the fake service, as another
// member's vote would.
func (f *fakeClient) settle(id string, status, by string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, a := range f.activities {
		if a.ID == id {
			sel := api.VoteApproved
			if status == api.StatusRejected {
				sel = api.VoteRejected
			}
			a.Status, a.CanApprove, a.CanReject = status, false, false
			a.Votes = append(append([]api.Vote(nil), a.Votes...), api.Vote{UserID: "u-" + by, User: api.User{UserName: by}, Selection: sel})
			f.activities[i] = a
		}
	}
}

// Another member's vote is announced, the settled activity stays listed with
// its final status and the open detail follows it; a new activity is announced
// with whether it waits for your vote.
func TestLiveConsoleAnnouncesSettledAndNewActivities(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, 30*time.Second)
	h.key("j") // the feature activity
	h.key("enter")
	if h.activities().detail == nil {
		t.Fatal("enter did not open the detail")
	}
	fake.settle("act-feature", api.StatusCompleted, "carol")
	fake.settle("act-keys", api.StatusRejected, "bob")
	newcomer := pendingActivity("act-new", "carol", time.Minute,
		api.Intent{CreatePolicyIntentV3: &api.CreatePolicyParams{PolicyName: "fresh", Effect: "EFFECT_ALLOW"}}, api.TypeCreatePolicyV3)
	fake.mu.Lock()
	fake.activities = append(fake.activities, newcomer)
	fake.mu.Unlock()

	before := len(h.root.log.entries)
	h.send(activitiesTickMsg{gen: h.activities().autoGen})
	var log []string
	for _, e := range h.root.log.entries[before:] {
		log = append(log, e.text)
	}
	got := strings.Join(log, "\n")
	for _, want := range []string{
		"completed after carol's approval: set feature WEBHOOK",
		"rejected by bob: delete 1 API key of carol",
		"new: create ALLOW policy \"fresh\" by carol — waits for your vote",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no notice %q in:\n%s", want, got)
		}
	}
	detail := h.frame()
	if !strings.Contains(detail, "ACTIVITY_STATUS_COMPLETED") || !strings.Contains(detail, "approve: no, reject: no") {
		t.Errorf("the open detail did not follow its activity:\n%s", detail)
	}
	h.key("esc")
	list := h.frame()
	for _, want := range []string{"REJECTED", "COMPLETED", "1/2 ✗1", "create ALLOW policy \"fresh\""} {
		if !strings.Contains(list, want) {
			t.Errorf("the list lacks %q:\n%s", want, list)
		}
	}
	// A manual refresh shows the list as the service has it.
	h.key("r")
	if n := h.activities().list.Table.Len(); n != 2 {
		t.Errorf("%d rows after r, want the 2 still pending:\n%s", n, h.frame())
	}
}

// A vote on an activity another member settled meanwhile says so in words.
func TestVoteOnSettledActivitySaysSoInWords(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, 0)
	h.key("a")
	fake.settle("act-policy", api.StatusCompleted, "carol")
	fake.voteErr = &api.Error{StatusCode: 400, Code: api.CodeFailedPrecondition, Message: "activity is not awaiting consensus"}
	before := len(h.root.log.entries)
	h.key("y")
	var got string
	for _, e := range h.root.log.entries[before:] {
		got += e.text + "\n"
	}
	if !strings.Contains(got, "your approve was not counted: the activity had already completed — completed after carol's approval: create ALLOW policy \"allow treasury\"") {
		t.Errorf("the refused vote is not explained:\n%s", got)
	}
	if h.activities().err != "" {
		t.Errorf("status bar keeps an error for a vote that was simply late: %q", h.activities().err)
	}
	// The toast wraps in the help lines: its words are all on screen, none cut.
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	flat := strings.Join(strings.Fields(h.frame()), " ")
	for _, w := range []string{"your approve was not counted:", "already completed", "after carol's", "approval: create ALLOW policy \"allow treasury\""} {
		if !strings.Contains(flat, w) {
			t.Errorf("the toast lacks %q at 80x24:\n%s", w, h.frame())
		}
	}
}

// notify = true rings the terminal (OSC 9, OSC 777, bell) for an activity that
// waits for your vote; off by default.
func TestNotifyWhenAnActivityWaitsForYourVote(t *testing.T) {
	for _, on := range []bool{false, true} {
		fake := &fakeClient{activities: sampleActivities()}
		h := newHarness(t, fake, false, 30*time.Second)
		h.root.common.Notify = on
		fake.mu.Lock()
		fake.activities = append(fake.activities, pendingActivity("act-new", "bob", time.Minute,
			api.Intent{CreateReadOnlySessionIntent: &api.CreateReadOnlySessionParams{}}, api.TypeCreateReadOnlySession))
		fake.mu.Unlock()
		from := len(h.msgs)
		h.send(activitiesTickMsg{gen: h.activities().autoGen})
		rang := false
		for _, m := range h.msgs[from:] {
			if r, ok := m.(tea.RawMsg); ok && strings.Contains(fmt.Sprint(r.Msg), "\x1b]9;vigil: an activity waits for your vote\x07") &&
				strings.Contains(fmt.Sprint(r.Msg), "\x1b]777;notify;vigil;") {
				rang = true
			}
		}
		if rang != on {
			t.Errorf("notify=%v: notification sent = %v", on, rang)
		}
	}
}

// Auto-refresh keeps ticking while the service is down (a restart) and the list
// comes back, error cleared, when it answers again.
func TestAutoRefreshSurvivesAServiceRestart(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	var scheduled int
	r := NewRoot(Options{Reader: fake, Submitter: fake, Theme: theme.Options{NoColor: true}, Static: true,
		Refresh: 5 * time.Second, Now: func() time.Time { return testNow },
		Tick: func(d time.Duration, f func(time.Time) tea.Msg) tea.Cmd {
			if d == 5*time.Second {
				scheduled++
			}
			return nil
		}})
	h := &harness{t: t, root: r}
	h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	h.run(r.Init())
	a := h.activities()
	fake.mu.Lock()
	fake.listErr = errors.New("connection refused")
	fake.mu.Unlock()
	for range 3 {
		before := scheduled
		h.send(activitiesTickMsg{gen: a.autoGen})
		if scheduled != before+1 {
			t.Fatal("a failed refresh stopped the auto-refresh")
		}
	}
	if !strings.Contains(h.frame(), "refresh failed") || a.list.Table.Len() != 3 {
		t.Errorf("while down: the last list should stay with the error shown:\n%s", h.frame())
	}
	fake.mu.Lock()
	fake.listErr = nil
	fake.activities = fake.activities[:2]
	fake.mu.Unlock()
	h.send(activitiesTickMsg{gen: a.autoGen})
	if a.err != "" || a.list.Table.Len() != 2 {
		t.Errorf("after the restart: err %q, %d rows (want the service's 2)", a.err, a.list.Table.Len())
	}
}

// A saved filter of the profile is a palette command that shows the All view
// with its statuses and types.
func TestSavedFilterFromThePalette(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, 0)
	h.root.common.SavedFilters = []SavedFilter{{Name: "keys", Statuses: []string{api.StatusConsensusNeeded}, Types: []string{api.TypeDeleteAPIKeys}}}
	h.key(":")
	for _, r := range "filter: keys" {
		if r == ' ' {
			h.key("space")
			continue
		}
		h.key(string(r))
	}
	h.key("enter")
	last := fake.lists[len(fake.lists)-1]
	if !h.activities().all || len(last.Types) != 1 || last.Types[0] != api.TypeDeleteAPIKeys {
		t.Fatalf("the saved filter did not apply: all=%v, last list %+v", h.activities().all, last)
	}
	if !strings.Contains(h.frame(), "type: DELETE_API_KEYS") || h.activities().list.Table.Len() != 1 {
		t.Errorf("the All view does not show the filter:\n%s", h.frame())
	}
}
