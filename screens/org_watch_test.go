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

// Reloading reads every user: a completion known to change nothing the
// organization's load holds (policy.ChangesNoRecords) reloads nothing; any
// other type, one vigil does not know included, reloads.
func TestOrgWatchReloadsOnlyForTypesThatMayChangeTheOrganization(t *testing.T) {
	var look orgWatchedMsg
	// newest puts an activity first on the page, the others staying on it.
	newest := func(id, typ string) orgWatchedMsg {
		look.items = append([]api.Activity{{ID: id, Type: typ, Status: watchCompleted}}, look.items...)
		return look
	}
	r := &Root{}
	if got := watchReloads(r, newest("s0", api.TypeCreateReadOnlySession)); got != "" {
		t.Errorf("first look with a completed read-only session: %q, want nothing", got)
	}
	for _, typ := range []string{api.TypeCreateReadOnlySession, api.TypeCreateInvitations, api.TypeDeleteTvcDeployment,
		api.TypeCreateSmartContractInterface, api.TypeDeleteWalletAccounts} {
		if got := watchReloads(r, newest("new "+typ, typ)); got != "" {
			t.Errorf("a completed %s: %q, want nothing", typ, got)
		}
	}
	for _, typ := range []string{api.TypeCreatePolicyV3, api.TypeCreateUserTag, api.TypeDeleteAPIKeys, api.TypeOauth,
		api.TypeSetOrganizationFeature, api.TypeCreateMfaPolicy, api.TypeUpdateOauth2Credential, "ACTIVITY_TYPE_NOT_KNOWN_TO_VIGIL", ""} {
		if got := watchReloads(r, newest("new "+typ, typ)); got != "all" {
			t.Errorf("a completed %q: %q, want a reload", typ, got)
		}
	}
	look, r = orgWatchedMsg{}, &Root{}
	if got := watchReloads(r, newest("u0", "ACTIVITY_TYPE_NOT_KNOWN_TO_VIGIL")); got != "org" {
		t.Errorf("first look with a completed activity of an unknown type: %q, want the organization reloaded", got)
	}
}
