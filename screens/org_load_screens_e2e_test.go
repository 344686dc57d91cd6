package screens

import (
	"context"
	"reflect"
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// stepEach delivers msg to the root and, depth first, every message its
// commands produce, calling check after each: what the screens show between
// two messages is what the terminal may draw.
func (h *harness) stepEach(msg tea.Msg, check func(tea.Msg)) {
	h.t.Helper()
	_, cmd := h.root.Update(msg)
	check(msg)
	for _, m := range collect(cmd) {
		h.msgs = append(h.msgs, m)
		if reflect.TypeOf(m).PkgPath() == "charm.land/bubbletea/v2" {
			continue
		}
		h.stepEach(m, check)
	}
}

// screenShown is what a screen shows and says: its body and status.
type screenShown struct {
	view     string
	status   ScreenStatus
	selected string
}

// shownOf is what each list screen of h shows now.
func shownOf(h *harness) map[string]screenShown {
	out := map[string]screenShown{}
	for _, s := range h.root.screens {
		shown := screenShown{view: s.View(), status: s.Status()}
		if l, ok := s.(listScreen); ok {
			shown.selected = l.filterList().Table.SelectedID()
		}
		out[s.Title()] = shown
	}
	return out
}

// completePolicy has bob propose a policy named name and alice approve it:
// it completes.
func completePolicy(t *testing.T, d *servertest.Demo, name string) {
	t.Helper()
	pol, err := d.Client("bob").CreatePolicy(context.Background(), api.CreatePolicyParams{PolicyName: name,
		Effect: api.EffectAllow, Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'", Consensus: "true", Notes: "n"})
	if err != nil {
		t.Fatalf("bob's policy %q: %v", name, err)
	}
	completeElsewhere(t, d, pol)
}

// A load of the organization that changes nothing the screens show (the
// vote dialog's read, r on the Organization screen) leaves every screen as
// it was: no list reset to its top, no "loading" between the load's start
// and its landing. Against the local service.
func TestUnchangedOrganizationLoadLeavesTheScreensAlone(t *testing.T) {
	d := servertest.StartDemo(t)
	completePolicy(t, d, "tags one")
	completePolicy(t, d, "tags two")
	h := memberConsole(t, d.Client("carol"))
	h.key("@Users")
	h.key("down")
	h.key("down")
	h.key("@Policies")
	h.key("down")
	for _, title := range []string{"Users", "Policies"} {
		if shownOf(h)[title].selected == "" {
			t.Fatalf("set-up: the %s screen has nothing selected:\n%s", title, h.frame())
		}
	}
	before := shownOf(h)
	loadsBefore := h.root.orgLoads.started
	h.stepEach(reloadOrgMsg{}, func(msg tea.Msg) {
		now := shownOf(h)
		for title, was := range before {
			if got := now[title]; !reflect.DeepEqual(got, was) {
				t.Errorf("after %T the %s screen changed (an organization load that changes nothing):\nselected %q, busy %q, was %q, %q\n%s\nwas:\n%s",
					msg, title, got.selected, got.status.Busy, was.selected, was.status.Busy, got.view, was.view)
			}
		}
	})
	if h.root.orgLoads.started != loadsBefore+1 || h.root.orgLoads.applied != h.root.orgLoads.started {
		t.Fatalf("set-up: the load did not run and land (started %d→%d, applied %d)", loadsBefore, h.root.orgLoads.started, h.root.orgLoads.applied)
	}
}

// A screen whose own read began after an organization load started keeps
// what it read when that load lands, though the load changed the
// organization the console held: the load read before the screen did.
func TestOrganizationLoadOlderThanAScreensReadLeavesItsNewerData(t *testing.T) {
	d := servertest.StartDemo(t)
	h := memberConsole(t, d.Client("carol"))
	h.key("@Policies")
	p := h.policies()
	completePolicy(t, d, "read by the load")
	_, cmd := h.root.Update(reloadOrgMsg{})
	older := loadedOrg(t, cmd) // read now, landing later
	completePolicy(t, d, "read after the load")
	h.run(p.load()) // the Policies screen's own read, after the load began
	names := func() []string {
		var out []string
		for _, pol := range p.data.policies {
			out = append(out, pol.PolicyName)
		}
		return out
	}
	if !slices.Contains(names(), "read after the load") {
		t.Fatalf("set-up: the screen's own read does not list the newer policy: %q", names())
	}
	h.send(older)
	if h.root.orgLoads.applied != older.load {
		t.Fatalf("set-up: the root did not apply the load (it changed the organization): applied %d, load %d", h.root.orgLoads.applied, older.load)
	}
	if !slices.Contains(names(), "read after the load") {
		t.Errorf("an organization load that started before the Policies screen's own read replaced what the screen read: %q", names())
	}
}
