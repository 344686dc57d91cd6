package screens

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// failingLists is the local service whose activity lists fail, while armed,
// when fails says so of the options.
type failingLists struct {
	*api.Client
	armed atomic.Bool
	fails func(api.ListActivitiesOptions) bool
}

func (f *failingLists) ListActivities(ctx context.Context, o api.ListActivitiesOptions) ([]api.Activity, error) {
	if f.armed.Load() && f.fails(o) {
		return nil, errors.New("503 upstream unavailable")
	}
	return f.Client.ListActivities(ctx, o)
}

// completedOnly: the list of completed activities of any type.
func completedOnly(o api.ListActivitiesOptions) bool {
	return len(o.Statuses) == 1 && o.Statuses[0] == api.StatusCompleted && len(o.Types) == 0
}

// allWithPending shows the All view, no filter, with the demo's pending
// activities among its rows.
func allWithPending(t *testing.T, h *harness) *Activities {
	t.Helper()
	h.key("v")
	a := h.activities()
	pending := 0
	for _, it := range a.items {
		if it.Status == api.StatusConsensusNeeded {
			pending++
		}
	}
	if !a.all || pending == 0 {
		t.Fatalf("setup: all %v, %d pending rows", a.all, pending)
	}
	return a
}

// onlyCompleted fails when the list shows a row the status filter
// COMPLETED excludes, or does not say that it could not load.
func onlyCompleted(t *testing.T, h *harness, a *Activities) {
	t.Helper()
	frame := h.frame()
	if !strings.Contains(frame, "status: ") {
		t.Fatalf("no filter in the title:\n%s", frame)
	}
	for _, it := range a.items {
		if it.Status != api.StatusCompleted {
			t.Errorf("under the title %q the list shows %s (%s), which the filter excludes:\n%s",
				listTitle(frame), it.ID, it.Status, frame)
			break
		}
	}
	if len(a.items) == 0 && !strings.Contains(frame, "not loaded") {
		t.Errorf("the list failed to load and is empty, but does not say it was not loaded:\n%s", frame)
	}
}

// A status filter picked in the All view whose list fails (or is still in
// flight) must not leave the previous filter's rows listed under the new
// filter's title: pending activities shown as "status: COMPLETED".
func TestFilterChangeNeverShowsTheOldFiltersRows(t *testing.T) {
	d := servertest.StartDemo(t)
	alice := &failingLists{Client: d.Client("alice"), fails: completedOnly}
	h := newHarnessWith(t, alice, alice, theme.Options{Dark: true, NoColor: true}, 0)
	a := allWithPending(t, h)
	alice.armed.Store(true)
	h.send(filterPickedMsg{kind: "status", values: []string{api.StatusCompleted}})
	onlyCompleted(t, h, a)
}

// The same for a saved filter applied while the All view is showing.
func TestSavedFilterNeverShowsTheOldFiltersRows(t *testing.T) {
	d := servertest.StartDemo(t)
	alice := &failingLists{Client: d.Client("alice"), fails: completedOnly}
	h := newHarnessWith(t, alice, alice, theme.Options{Dark: true, NoColor: true}, 0)
	a := allWithPending(t, h)
	alice.armed.Store(true)
	h.send(savedFilterMsg{SavedFilter{Name: "done", Statuses: []string{api.StatusCompleted}}})
	onlyCompleted(t, h, a)
}

// ] asks for the older page: when it fails, the newest page's rows must not
// stand under the older page's title, as if they were older activities.
func TestOlderPageNeverShowsTheNewestPagesRows(t *testing.T) {
	d := servertest.StartDemo(t)
	backlog(t, d, pageSize+10)
	alice := &failingLists{Client: d.Client("alice"), fails: func(o api.ListActivitiesOptions) bool { return o.After != "" }}
	h := newHarnessWith(t, alice, alice, theme.Options{Dark: true, NoColor: true}, 0)
	a := h.activities()
	if !a.older {
		t.Fatalf("setup: the first page does not say older pending follow (%d rows)", len(a.items))
	}
	newest := map[string]bool{}
	for _, it := range a.items {
		newest[it.ID] = true
	}
	alice.armed.Store(true)
	h.key("]")
	frame := h.frame()
	if !a.paged() {
		t.Fatalf("setup: ] did not ask for the older page:\n%s", frame)
	}
	for _, it := range a.items {
		if newest[it.ID] {
			t.Fatalf("the older page failed to load, and the newest page's %s is listed as on it:\n%s", it.ID, frame)
		}
	}
	if !strings.Contains(frame, "not loaded") {
		t.Errorf("the older page failed to load, and the list does not say it was not loaded:\n%s", frame)
	}
}

// listTitle is the All view's title line in frame.
func listTitle(frame string) string {
	for _, l := range strings.Split(frame, "\n") {
		if strings.Contains(l, "All activities") {
			return strings.TrimSpace(l)
		}
	}
	return ""
}
