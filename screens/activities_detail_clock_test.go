package screens

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// TestOpenDetailFollowsTheClock: with auto-refresh off or paused, an open
// activity's detail still moves with the clock, as the list behind it does:
// a read-only session shown "(in 1m)" turns "(expired)" once it is, and
// "… ago" counts up. A bearer session must not be shown valid after it has
// expired. The clock's tick only redraws: it fetches nothing.
func TestOpenDetailFollowsTheClock(t *testing.T) {
	act := pendingActivity("act-sess", "alice", time.Minute, api.Intent{CreateReadOnlySessionIntent: &api.CreateReadOnlySessionParams{}}, api.TypeCreateReadOnlySession)
	act.Status, act.CanApprove, act.CanReject = api.StatusCompleted, false, false
	act.Result.CreateReadOnlySessionResult = &api.CreateReadOnlySessionResult{Session: "tok", UserID: "u-alice",
		SessionExpiry: strconv.FormatInt(testNow.Add(90*time.Second).Unix(), 10)}
	fake := &fakeClient{activities: []api.Activity{act}}
	h, now := newClockedHarness(t, fake)
	h.key("p") // auto-refresh paused
	h.key("v") // all activities
	h.key("enter")
	created := act.CreatedAt.Time()
	if f := h.plainFrame(); !strings.Contains(f, "(in 1m)") || !strings.Contains(f, "("+ui.Ago(*now, created)+" ago)") {
		t.Fatalf("set-up: the session's expiry is not shown as in 1m, or the vote's age is missing:\n%s", f)
	}
	lists, _, _ := fake.counts()
	*now = testNow.Add(10 * time.Minute)
	h.send(clockMsg{})
	f := h.plainFrame()
	if strings.Contains(f, "(in 1m)") || !strings.Contains(f, "(expired)") {
		t.Errorf("10 minutes on, the open detail still shows the session as valid for another minute:\n%s", f)
	}
	if age := "(" + ui.Ago(*now, created) + " ago)"; !strings.Contains(f, age) {
		t.Errorf("10 minutes on, the open detail does not show the vote's age as %s:\n%s", age, f)
	}
	if after, _, _ := fake.counts(); after != lists {
		t.Errorf("the clock's tick fetched the activities (%d lists, %d before): it should only redraw", after, lists)
	}
}
