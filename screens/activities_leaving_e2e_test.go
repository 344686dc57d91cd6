package screens

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
)

// An activity that leaves the Pending list stays on it until its final
// record is read (activities_live.go). These tests hold that record back, as
// a slow read would, and check what the list does meanwhile and when it
// comes late.

// runHolding is h.run, but the final records of activities that left the
// list (activitySettledMsg) are held back in held.
func runHolding(h *harness, cmd tea.Cmd, held *[]tea.Msg) {
	for _, msg := range collect(cmd) {
		if _, ok := msg.(activitySettledMsg); ok {
			*held = append(*held, msg)
			continue
		}
		h.msgs = append(h.msgs, msg)
		if _, ok := msg.(tea.QuitMsg); ok {
			continue
		}
		_, next := h.root.Update(msg)
		runHolding(h, next, held)
	}
}

// refreshHolding is an auto-refresh whose final records are held back.
func refreshHolding(h *harness, held *[]tea.Msg) {
	_, cmd := h.root.Update(activitiesTickMsg{gen: h.activities().autoGen})
	runHolding(h, cmd, held)
}

// fullPage is a page of pending activities, newest first.
func fullPage() []api.Activity {
	var acts []api.Activity
	for i := range pageSize {
		acts = append(acts, pendingActivity(fmt.Sprintf("act-%03d", i), "bob", time.Duration(i+1)*time.Minute,
			api.Intent{CreateUserTagIntent: &api.CreateUserTagParams{UserTagName: fmt.Sprintf("t%d", i)}}, api.TypeCreateUserTag))
	}
	return acts
}

// pushOldest has a new arrival push the oldest activity of a full page to
// the older page; the oldest's final record is fetched and held in held.
func pushOldest(t *testing.T, h *harness, fake *fakeClient, held *[]tea.Msg) {
	t.Helper()
	fake.mu.Lock()
	fake.activities = append([]api.Activity{pendingActivity("act-new", "carol", 0,
		api.Intent{CreateUserTagIntent: &api.CreateUserTagParams{UserTagName: "new"}}, api.TypeCreateUserTag)}, fake.activities...)
	fake.mu.Unlock()
	refreshHolding(h, held)
	if len(*held) != 1 {
		t.Fatalf("setup: %d final records fetched, want the oldest's", len(*held))
	}
}

// leavingPage is a full page of pending activities whose oldest an arrival
// pushed to the older page; the oldest's final record is held back in held.
type leavingPage struct {
	h      *harness
	fake   *fakeClient
	a      *Activities
	oldest string
	held   []tea.Msg
}

// newLeavingPage sets up a leavingPage; onOldest puts the cursor on the
// oldest first (G).
func newLeavingPage(t *testing.T, onOldest bool) *leavingPage {
	t.Helper()
	acts := fullPage()
	p := &leavingPage{fake: &fakeClient{activities: acts}, oldest: acts[len(acts)-1].ID}
	p.h = newHarness(t, p.fake, false, time.Minute)
	p.a = p.h.activities()
	if onOldest {
		p.h.key("G")
		if got := p.a.selected(); got == nil || got.ID != p.oldest {
			t.Fatalf("setup: cursor not on %s", p.oldest)
		}
	}
	pushOldest(t, p.h, p.fake, &p.held)
	return p
}

// checkLeftAndVoteless checks that the listed row of id is still marked as
// having left Pending, and offers no vote, while it is the copy from before
// it left; when says at what moment.
func checkLeftAndVoteless(t *testing.T, h *harness, a *Activities, id, when string) {
	t.Helper()
	i := slices.IndexFunc(a.items, func(it api.Activity) bool { return it.ID == id })
	if i < 0 {
		t.Fatalf("setup: %s is not listed %s", id, when)
	}
	if block := a.voteBlock(&a.items[i], true); !strings.Contains(block, "left the Pending list") {
		t.Errorf("%s, the copy of %s from before it left offers a vote again (block %q)", when, id, block)
	}
	h.root.Update(clockMsg{}) // a second passes: the rows are drawn again
	if !strings.Contains(h.frame(), leftPendingMark) {
		t.Errorf("%s, the row of %s no longer says it left:\n%s", when, id, h.frame())
	}
}

func listed(a *Activities, id string) bool {
	return slices.ContainsFunc(a.items, func(it api.Activity) bool { return it.ID == id })
}

// The arrival that pushed the activity under the cursor away settles before
// the activity's record comes, so the next refresh puts it back on the page:
// the late record (still pending) must not take it off again, move the
// cursor, or say it is on an older page.
func TestLateRecordLeavesActivityThatCameBackOnThePage(t *testing.T) {
	p := newLeavingPage(t, true)
	h, fake, a, oldest, held := p.h, p.fake, p.a, p.oldest, p.held
	fake.mu.Lock()
	fake.activities[0].Status = api.StatusCompleted
	fake.mu.Unlock()
	refreshHolding(h, &held)
	if !listed(a, oldest) {
		t.Fatalf("setup: %s not back on the page", oldest)
	}
	h.msgs = nil
	h.send(held[0])
	if !listed(a, oldest) {
		t.Errorf("%s is pending and on the page, yet its late record took it off; toasts: %q", oldest, toastsOf(h))
	}
	if got := a.selected(); got == nil || got.ID != oldest {
		t.Errorf("the cursor left %s, which is still on the page", oldest)
	}
	if h.toasted("left the Pending list") {
		t.Errorf("a toast says the activity left the list, though it is on it: %q", toastsOf(h))
	}
}

// ] shows the older page the activity was pushed to, while its record is on
// its way: the late record must not take it off that page.
func TestLateRecordLeavesActivityOnTheOlderPage(t *testing.T) {
	p := newLeavingPage(t, false)
	h, a, oldest, held := p.h, p.a, p.oldest, p.held
	h.key("]")
	if !listed(a, oldest) {
		t.Fatalf("setup: %s not on the older page", oldest)
	}
	h.send(held[0])
	if !listed(a, oldest) {
		t.Errorf("%s is on the older page it was pushed to, yet its late record took it off", oldest)
	}
}

// v shows the All view (and ] its older page, where the activity is) while
// the record of the activity that left is on its way: a late answer, even a
// failed read, must not take the activity off it.
func TestLateFailedReadLeavesActivityInTheAllView(t *testing.T) {
	p := newLeavingPage(t, false)
	h, a, oldest, held := p.h, p.a, p.oldest, p.held
	h.key("v")
	h.key("]")
	if !a.all || !listed(a, oldest) {
		t.Fatalf("setup: %s not in the All view", oldest)
	}
	late := held[0].(activitySettledMsg)
	late.activity, late.err = nil, errors.New("read timed out")
	h.msgs = nil
	h.send(late)
	if !listed(a, oldest) {
		t.Errorf("%s is in the All view, yet the late failed read of its record took it off; toasts: %q", oldest, toastsOf(h))
	}
}

// While the final record of the activity under the cursor is read, its row
// is its copy from before it settled: no vote is offered on it, a and x say
// why, and the row says it left Pending.
func TestNoVoteOnRowWhoseFinalRecordIsBeingRead(t *testing.T) {
	acts := []api.Activity{
		pendingActivity("act-a", "bob", time.Minute, api.Intent{CreateUserTagIntent: &api.CreateUserTagParams{UserTagName: "a"}}, api.TypeCreateUserTag),
		pendingActivity("act-b", "bob", 2*time.Minute, api.Intent{CreateUserTagIntent: &api.CreateUserTagParams{UserTagName: "b"}}, api.TypeCreateUserTag),
	}
	fake := &fakeClient{activities: acts}
	h := newHarness(t, fake, false, time.Minute)
	a := h.activities()
	h.key("G")
	if got := a.selected(); got == nil || got.ID != "act-b" {
		t.Fatal("setup: cursor not on act-b")
	}
	fake.mu.Lock()
	fake.activities[1].Status = api.StatusCompleted
	fake.activities[1].CanApprove, fake.activities[1].CanReject = false, false
	fake.mu.Unlock()
	var held []tea.Msg
	refreshHolding(h, &held)
	if len(held) != 1 {
		t.Fatalf("setup: %d final records fetched", len(held))
	}
	row := lineWith(t, h.frame(), `"b"`)
	if !strings.Contains(row, leftPendingMark) || strings.Contains(row, "CONSENSUS") || strings.Contains(row, "vote") {
		t.Errorf("the row of act-b, which left the Pending list, shows it pending: %q", row)
	}
	for _, k := range []string{"a", "x"} {
		h.msgs = nil
		h.key(k)
		if h.voteDialogOpen() {
			t.Fatalf("%s opened the vote dialog on act-b, which left the Pending list", k)
		}
		if !h.toasted("its final record is being read") {
			t.Errorf("%s on act-b said nothing of why no vote: %q", k, toastsOf(h))
		}
	}
	h.send(held[0])
	if row := lineWith(t, h.frame(), `"b"`); !strings.Contains(row, "COMPLETED") {
		t.Errorf("act-b's final record came, and its row does not say it completed: %q", row)
	}
}

// r while a leaving row's record is on its way: until the reload answers,
// the row is still the copy from before it left, so it stays marked and
// offers no vote (a vote on it may be one the service has closed).
func TestRefreshKeepsALeavingRowMarkedUntilTheListAnswers(t *testing.T) {
	p := newLeavingPage(t, true)
	h, a, oldest := p.h, p.a, p.oldest
	_, reload := h.root.Update(keyPress("r")) // its answers held back: a slow service
	checkLeftAndVoteless(t, h, a, oldest, "after r, before the list answers")
	if got := a.selected(); got == nil || got.ID != oldest {
		t.Errorf("after r, the cursor left %s", oldest)
	}
	h.run(reload)
	if listed(a, oldest) {
		t.Errorf("%s is still listed after the reload, which does not have it", oldest)
	}
	if strings.Contains(h.frame(), leftPendingMark) {
		t.Errorf("a row still says it left after the list answered:\n%s", h.frame())
	}
}

// ] and then [ before the older page answers (a slow service, or keys typed
// quickly): [ asks for the page above page 1's first row, which is the
// newest and short, so that answer loads the newest page again without
// replacing the rows. Until the rows are replaced, no copy of the activity
// that left from before it left offers a vote: ] and [ clear the rows of
// the page they leave, and a copy still listed stays marked.
func TestShortNewestPageAnswerKeepsALeavingRowMarked(t *testing.T) {
	p := newLeavingPage(t, true)
	h, a, oldest := p.h, p.a, p.oldest
	h.root.Update(keyPress("]")) // its answer held back: a slow service
	_, cmd := h.root.Update(keyPress("["))
	for _, msg := range collect(cmd) {
		if _, ok := msg.(activitySettledMsg); ok {
			continue
		}
		h.root.Update(msg) // the reload this answer asks for is not run: slow
	}
	if !listed(a, oldest) {
		return // the page's rows were cleared: no copy to vote on
	}
	checkLeftAndVoteless(t, h, a, oldest, "before the newest page answers")
}
