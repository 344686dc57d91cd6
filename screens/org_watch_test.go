package screens

import (
	"fmt"
	"testing"

	"github.com/vigil-console/vigil/api"
)

func watched(statuses ...string) orgWatchedMsg {
	var m orgWatchedMsg
	for i := 0; i+1 < len(statuses); i += 2 {
		m.items = append(m.items, api.Activity{ID: statuses[i], Status: statuses[i+1]})
	}
	return m
}

// watchReloads is what a look's reply asks for: "org" (the organization
// only), "all" (organization and screens) or "".
func watchReloads(r *Root, m orgWatchedMsg) string {
	cmd := r.orgWatched(m)
	if cmd == nil {
		return ""
	}
	switch cmd().(type) {
	case reloadOrgMsg:
		return "org"
	case orgChangedMsg:
		return "all"
	}
	return "?"
}

const (
	watchPending   = api.StatusConsensusNeeded
	watchCompleted = api.StatusCompleted
)

// The first look cannot tell what completed between the organization's
// load at start and itself: a completed activity in it reloads the
// organization, once, without the screens.
func TestOrgWatchFirstLookReloadsTheOrganizationWhenOneCompleted(t *testing.T) {
	r := &Root{}
	if got := watchReloads(r, watched("a", watchPending, "b", watchCompleted)); got != "org" {
		t.Errorf("first look with a completed activity: %q, want the organization reloaded", got)
	}
	r = &Root{}
	if got := watchReloads(r, watched("a", watchPending)); got != "" {
		t.Errorf("first look with nothing completed: %q, want nothing", got)
	}
}

// A page the client halves and doubles again brings back activities the
// look before did not show: they are not new, and reload nothing; one that
// completed since does.
func TestOrgWatchPageSizeChangesDoNotReload(t *testing.T) {
	r := &Root{}
	watchReloads(r, watched("p1", watchPending, "c1", watchCompleted, "c2", watchCompleted, "c3", watchCompleted, "c4", watchCompleted))
	if got := watchReloads(r, watched("p1", watchPending, "c1", watchCompleted)); got != "" {
		t.Errorf("a halved page: %q, want nothing", got)
	}
	if got := watchReloads(r, watched("p1", watchPending, "c1", watchCompleted, "c2", watchCompleted, "c3", watchCompleted, "c4", watchCompleted)); got != "" {
		t.Errorf("the page doubled again: %q, want nothing (c2–c4 were seen)", got)
	}
	if got := watchReloads(r, watched("n1", watchCompleted, "p1", watchPending, "c1", watchCompleted)); got != "all" {
		t.Errorf("a new activity already completed: %q, want a reload", got)
	}
	if got := watchReloads(r, watched("n1", watchCompleted, "p1", watchCompleted, "c1", watchCompleted)); got != "all" {
		t.Errorf("p1 completed since: %q, want a reload", got)
	}
}

// Past the bound, the activities the oldest looks showed are forgotten
// first: those of a page that is halved and doubled again stay known, and
// its doubling reloads nothing.
func TestOrgWatchBoundForgetsTheOldestFirst(t *testing.T) {
	r := &Root{}
	watchReloads(r, watched("p1", watchPending, "c1", watchCompleted, "c2", watchCompleted, "c3", watchCompleted, "c4", watchCompleted))
	for i := 0; len(r.orgWatch.seen) <= watchKnown; i++ {
		r.orgWatch.seen[fmt.Sprintf("old-%d", i)] = watchSeen{watchCompleted, 0} // shown by looks before these
	}
	if got := watchReloads(r, watched("p1", watchPending, "c1", watchCompleted)); got != "" {
		t.Fatalf("a halved page: %q, want nothing", got)
	}
	if got := watchReloads(r, watched("p1", watchPending, "c1", watchCompleted, "c2", watchCompleted, "c3", watchCompleted, "c4", watchCompleted)); got != "" {
		t.Errorf("the page doubled again past the bound: %q, want nothing (c2–c4 were seen, nothing completed)", got)
	}
	if n := len(r.orgWatch.seen); n > watchKnown {
		t.Errorf("the watch remembers %d activities, more than its bound %d", n, watchKnown)
	}
}
