package screens

import (
	"slices"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// openOtherThan opens, on Activities, an activity other than id and returns
// its ID.
func openOtherThan(t *testing.T, h *harness, id string) string {
	t.Helper()
	h.key("enter")
	if d := h.activities().detail; d != nil && d.activity.ID == id {
		h.key("esc")
		h.key("down")
		h.key("enter")
	}
	d := h.activities().detail
	if d == nil || d.activity.ID == id {
		t.Fatalf("could not open an activity other than %s:\n%s", id, h.frame())
	}
	return d.activity.ID
}

// A jump held while the user typed into Activities' filter is dropped once
// the user opens an activity of their own: going away and back (2, then 1)
// later must not swap it for the reply's, and a key typed right after 1 (a)
// acts on the activity the user chose.
func TestHeldJumpDroppedOnceTheUserOpensAnActivity(t *testing.T) {
	h := everyScreenConsole(t)
	h.key("@Activities")
	h.key("/")
	h.typeText("x")
	held := sampleActivities()[1]
	h.send(ShowActivityMsg{ID: held.ID, Activity: &held})
	h.key("esc") // done typing; the notice is ignored
	mine := openOtherThan(t, h, held.ID)
	h.key("@Users")
	h.key("@Activities")
	if got := h.root.openActivity(); got != mine {
		t.Fatalf("back on Activities the detail is %q; the user had %q open (the jump held for %q replaced it)",
			got, mine, held.ID)
	}
	h.key("a")
	if h.voteDialogOpen() && !strings.Contains(h.plainFrame(), api.SanitizeID(mine)) {
		t.Errorf("a opened a vote dialog that is not about %s:\n%s", mine, h.plainFrame())
	}
}

// A jump held while the user typed on another screen never replaces the
// detail the user had open in Activities: going there keeps it, and a notice
// (kept in the messages) names the reply's activity, which stays in the list.
func TestHeldJumpNeverReplacesAnOpenDetail(t *testing.T) {
	h := everyScreenConsole(t)
	h.key("@Activities")
	held := sampleActivities()[1]
	mine := openOtherThan(t, h, held.ID)
	h.key("@Users")
	h.key("/")
	h.typeText("b")
	h.send(ShowActivityMsg{ID: held.ID, Activity: &held})
	h.key("esc")
	before := len(h.root.log.entries)
	h.key("@Activities")
	if got := h.root.openActivity(); got != mine {
		t.Fatalf("going to Activities opened %q, not the %q the user had open (held %q):\n%s", got, mine, held.ID, h.frame())
	}
	logged := slices.ContainsFunc(h.root.log.entries[before:], func(e logEntry) bool {
		return strings.Contains(e.text, held.ID) && strings.Contains(e.text, "not opened")
	})
	if !logged {
		t.Errorf("no message says %s was not opened, and names it:\n%s", held.ID, h.plainFrame())
	}
	if !slices.ContainsFunc(h.activities().items, func(a api.Activity) bool { return a.ID == held.ID }) {
		t.Errorf("the held activity %s is not in the list to open", held.ID)
	}
	// The jump is spent: a later visit does not swap the detail either.
	h.key("esc")
	h.key("@Users")
	h.key("@Activities")
	if d := h.activities().detail; d != nil {
		t.Errorf("a later visit opened %s", d.activity.ID)
	}
}
