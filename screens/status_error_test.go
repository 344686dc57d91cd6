package screens

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
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
