package screens

import (
	"testing"
	"time"
)

// p pauses auto-refresh on the Users list as the help says it does (the pause
// is the console's: on a record, and on Activities, it already did), and p
// again resumes it.
func TestUsersListPausesAndResumesAutoRefresh(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, time.Minute)
	h.gotoScreen("Users")
	h.key("p")
	if !h.root.common.AutoPaused || !h.toasted("auto-refresh paused") {
		t.Fatalf("p on the Users list: paused %v, toasts %q", h.root.common.AutoPaused, toastsOf(h))
	}
	h.key("p")
	if h.root.common.AutoPaused {
		t.Errorf("p again on the Users list did not resume auto-refresh")
	}
}
