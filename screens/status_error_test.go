package screens

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
)

// At the documented minimum width (60 columns) a failed refresh still shows
// in the status bar, with the data marked stale.
func TestFailedRefreshShowsAtMinimumWidth(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, 0)
	h.send(tea.WindowSizeMsg{Width: 60, Height: 18})
	fake.mu.Lock()
	fake.listErr = fmt.Errorf("connection refused")
	fake.mu.Unlock()
	h.key("r")
	if h.activities().Status().Err == "" {
		t.Fatal("refresh did not fail")
	}
	lines := strings.Split(h.frame(), "\n")
	if bar := lines[len(lines)-1]; !strings.Contains(bar, "✗") || !strings.Contains(bar, "stale") {
		t.Errorf("the status bar does not say the refresh failed and the list is stale: %q", bar)
	}
}

// A vote answered while the list still cannot be refreshed leaves the list
// marked stale, with its error: only a refresh that succeeds clears them.
// Here the vote is late (another member settled the activity first).
func TestVoteKeepsTheStaleMarkOfAFailedRefresh(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, 0)
	fake.mu.Lock()
	fake.listErr = errors.New("connection refused")
	fake.mu.Unlock()
	h.key("r")
	if st := h.activities().Status(); !st.Stale {
		t.Fatalf("the failed refresh is not stale: %+v", st)
	}
	h.key("a")
	fake.settle("act-policy", api.StatusCompleted, "carol")
	fake.mu.Lock()
	fake.voteErr = &api.Error{StatusCode: 400, Code: api.CodeFailedPrecondition, Message: "activity is not awaiting consensus"}
	fake.mu.Unlock()
	h.key("y")
	if st := h.activities().Status(); !st.Stale || !strings.Contains(st.Err, "connection refused") {
		t.Errorf("the list still cannot be refreshed, but after a vote the status bar no longer says so: %+v\n%s", st, h.frame())
	}

	fake.mu.Lock()
	fake.listErr = nil
	fake.mu.Unlock()
	h.key("r")
	if st := h.activities().Status(); st.Stale || st.Err != "" {
		t.Errorf("a refresh that succeeded left the status stale: %+v", st)
	}
}
