package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/ui/theme"
)

// A failed refresh stays visible however narrow the bar: the organization,
// the key and the times are cut before the error, and the time of the data
// shown is marked stale.
func TestStatusBarKeepsTheErrorWhenCut(t *testing.T) {
	th := theme.New(theme.Options{Dark: true, NoColor: true})
	now := time.Date(2025, 1, 2, 5, 42, 20, 0, time.UTC)
	s := Status{Profile: "alice", Org: "Vigil Demo", User: "alice", Key: "file key", AutoRefresh: 5 * time.Second,
		LastRefresh: now.Add(-41 * time.Second), Now: now, Busy: "loading activities…", Spinner: "⠋",
		Err: "list activities: connection refused", Stale: true}
	for _, width := range []int{40, 60, 80, 120} {
		bar := ansi.Strip(StatusBar(th, s, width))
		if w := ansi.StringWidth(bar); w != width {
			t.Errorf("width %d: the bar is %d cells", width, w)
		}
		if !strings.Contains(bar, "✗ list activities") {
			t.Errorf("width %d: the error is cut away: %q", width, bar)
		}
	}
	if bar := ansi.Strip(StatusBar(th, s, 200)); !strings.Contains(bar, "stale: refreshed") || !strings.Contains(bar, s.Err) {
		t.Errorf("a wide bar does not show the whole error and the stale mark: %q", bar)
	}
	s.Stale = false
	if bar := ansi.Strip(StatusBar(th, s, 200)); strings.Contains(bar, "stale") {
		t.Errorf("data not stale is marked stale: %q", bar)
	}
}

// Beyond a minute, the bar says the service's clock differs, which way and
// by how much, since every time shown is the service's; within it, nothing.
func TestStatusBarSaysTheServiceClockDiffers(t *testing.T) {
	th := theme.New(theme.Options{Dark: true, NoColor: true})
	s := Status{Profile: "alice", Org: "Vigil Demo", Now: time.Date(2025, 1, 2, 5, 42, 20, 0, time.UTC)}
	for skew, want := range map[time.Duration]string{
		time.Hour + 2*time.Minute + 10*time.Second: "service clock 1h2m ahead of this machine's: times shown are the service's",
		-3 * time.Hour:    "service clock 3h behind this machine's: times shown are the service's",
		time.Minute:       "",
		-40 * time.Second: "",
	} {
		s.ClockSkew = skew
		bar := ansi.Strip(StatusBar(th, s, 200))
		if got := strings.Contains(bar, "service clock"); got != (want != "") || !strings.Contains(bar, want) {
			t.Errorf("skew %v: bar %q, want it to say %q", skew, bar, want)
		}
	}
}
