package screens

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
)

// In an open activity, v (pending/all) acts on the list, not the detail: help
// strikes it through and a press says why instead of doing nothing; back on
// the list it switches the view.
func TestModeKeyInTheDetailSaysWhy(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	a := h.activities()
	h.key("enter")
	if a.detail == nil {
		t.Fatal("enter did not open the detail")
	}
	if a.keys.Mode.Enabled() {
		t.Error("v is shown as available in the detail")
	}
	h.key("v")
	if a.all || a.detail == nil {
		t.Fatalf("v in the detail changed the view (all %v) or closed it", a.all)
	}
	if !h.toasted("v (pending/all) works on the list, not in an open activity: esc goes back to it") {
		t.Errorf("v in the detail said nothing:\n%s", h.frame())
	}
	h.key("esc")
	if !a.keys.Mode.Enabled() {
		t.Error("v is struck through on the list")
	}
	h.key("v")
	if !a.all {
		t.Error("v on the list did not switch to All")
	}
}

// ? lists every key of the screen: with an activity open, the detail's
// scrolling keys (b/pgup, f/space/pgdn, ctrl+u/ctrl+d), and back's every key.
func TestActivitiesFullHelpInTheDetailListsItsKeys(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	h.key("enter")
	h.key("?")
	frame := h.frame()
	for _, want := range []string{"b/pgup page up", "f/space/pgdn page down", "ctrl+u ½ page up", "ctrl+d ½ page down", "esc/backspace back"} {
		if !strings.Contains(frame, want) {
			t.Errorf("the full help lacks %q:\n%s", want, frame)
		}
	}
	// Keys of the list alone are listed struck through (docs/console.md:
	// the record's help is as tall as the list's).
	a := h.activities()
	for _, b := range []key.Binding{a.list.Keys.Open, a.list.Keys.Sort, a.keys.Status, a.keys.Type, a.keys.NextPage} {
		if help := b.Help(); !strings.Contains(frame, help.Key+" "+help.Desc) || b.Enabled() {
			t.Errorf("the record's full help does not list the list's key %q struck through:\n%s", help.Key+" "+help.Desc, frame)
		}
	}
}
