package screens

import (
	"context"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// With more pending activities than a page, an activity that settles lets an
// older one into the Pending view's first page: its settling is announced,
// the newcomer from the next page is not announced as new (nor rung for), and
// a real new submission still is. Against the local service.
func TestEndToEndOlderActivitySlidingIntoThePageIsNotNew(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	member := func(name string) server.SeedMember { return demoMember(t, d, name) }
	if err := d.Server.SeedActivities(ctx, d.Info.OrganizationID, server.SeedSpec{Activities: pageSize + 20, Pending: pageSize + 10,
		Requester: member("alice"), Approver: member("bob")}); err != nil {
		t.Fatal(err)
	}
	alice, carol := d.Client("alice"), d.Client("carol")
	h := newHarnessWith(t, alice, alice, theme.Options{Dark: true, NoColor: true}, 30*time.Second)
	a := h.activities()
	if len(a.items) != pageSize {
		t.Fatalf("the Pending view lists %d activities, want a full page of %d", len(a.items), pageSize)
	}
	settling := a.items[0]
	if _, err := carol.ApproveActivity(ctx, settling.Fingerprint); err != nil {
		t.Fatal(err)
	}
	if after, err := alice.GetActivity(ctx, settling.ID); err != nil || after.Status == api.StatusConsensusNeeded {
		t.Fatalf("carol's approval did not settle %s: %+v %v", settling.ID, after, err)
	}
	notices := func(refresh func()) string {
		t.Helper()
		before := len(h.root.log.entries)
		refresh()
		var got []string
		for _, e := range h.root.log.entries[before:] {
			got = append(got, e.text)
		}
		return strings.Join(got, "\n")
	}
	got := notices(func() { h.send(activitiesTickMsg{gen: h.activities().autoGen}) })
	if !strings.Contains(got, "after carol's approval") {
		t.Errorf("the settled activity is not announced:\n%s", got)
	}
	if strings.Contains(got, "new:") || strings.Contains(got, "new pending") {
		t.Errorf("an older activity that moved into the page was announced as new:\n%s", got)
	}
	tag, err := d.Client("bob").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "fresh", UserIDs: []string{member("bob").UserID}})
	if err != nil || tag.Status != api.StatusConsensusNeeded {
		t.Fatalf("bob's new activity: %+v %v", tag, err)
	}
	if got := notices(func() { h.send(activitiesTickMsg{gen: h.activities().autoGen}) }); !strings.Contains(got, "new: ") {
		t.Errorf("a new pending activity is not announced:\n%s", got)
	}
}

// ] and [ page through the whole history against the local service: the older
// page holds the activities after the first page's last row, and [ comes back.
func TestEndToEndPagingReachesOlderActivities(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	member := func(name string) server.SeedMember { return demoMember(t, d, name) }
	if err := d.Server.SeedActivities(ctx, d.Info.OrganizationID, server.SeedSpec{Activities: pageSize + 30,
		Requester: member("alice"), Approver: member("bob")}); err != nil {
		t.Fatal(err)
	}
	// The history, newest first, a page at a time as the service gives it.
	var history []string
	for after := ""; ; {
		page, err := d.Client("alice").ListActivities(ctx, api.ListActivitiesOptions{Limit: 100, After: after})
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range page {
			history = append(history, a.ID)
		}
		if len(page) < 100 {
			break
		}
		after = page[len(page)-1].ID
	}
	ids := func(acts []api.Activity) []string {
		var out []string
		for _, a := range acts {
			out = append(out, a.ID)
		}
		return out
	}
	h := newHarnessWith(t, d.Client("alice"), d.Client("alice"), theme.Options{Dark: true, NoColor: true}, 30*time.Second)
	h.key("v")
	first := slices.Clone(h.activities().items)
	if !slices.Equal(ids(first), history[:pageSize]) {
		t.Fatalf("the All view's first page is not the newest %d activities", pageSize)
	}
	last := first[len(first)-1]
	h.key("]")
	older := h.activities().items
	if want := history[pageSize:min(len(history), 2*pageSize)]; !slices.Equal(ids(older), want) {
		t.Fatalf("] shows %d activities from %v, want the %d older ones from %s", len(older), ids(older)[:min(1, len(older))], len(want), want[0])
	}
	h.key("[")
	back := h.activities().items
	if len(back) != len(first) || back[0].ID != first[0].ID || back[len(back)-1].ID != last.ID {
		t.Errorf("[ did not come back to the first page: %d activities, from %s", len(back), back[0].ID)
	}
	// Back on top it is the newest page again, not a page before something.
	if a := h.activities(); a.before != "" || a.after != "" || !strings.Contains(h.frame(), "page: newest") {
		t.Errorf("[ back to the top left the view paged (before %q, after %q)", a.before, a.after)
	}
	h.key("[")
	if a := h.activities(); len(a.items) != len(first) || a.items[0].ID != first[0].ID {
		t.Errorf("[ on the newest page left %d activities", len(a.items))
	}
}

// With the service unreachable from the start, no screen claims the
// organization has nothing: each says it could not load, and why.
func TestEndToEndUnreachableServiceIsNotAnEmptyOrganization(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + l.Addr().String()
	l.Close() // nothing listens there now
	k, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	c, err := api.NewClient(dead, "org", k, api.WithRetryPolicy(0, time.Millisecond, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	h := newHarnessWith(t, c, c, theme.Options{Dark: true, NoColor: true}, 30*time.Second)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 40})
	for _, s := range []struct{ screen, empty string }{
		{"Activities", "no pending activities"},
		{"Policies", "no policies"},
		{"Users", "no users"},
		{"MFA policies", "no MFA policies"},
	} {
		h.key("@" + s.screen)
		out := h.frame()
		if strings.Contains(out, s.empty) || !strings.Contains(out, "not loaded:") || !strings.Contains(out, "cannot connect") {
			t.Errorf("%s, the service unreachable:\n%s", s.screen, out)
		}
	}
}

// demoMember is a demo member's user id and stamping key, for seeding.
func demoMember(t *testing.T, d *servertest.Demo, name string) server.SeedMember {
	t.Helper()
	k, err := keys.Store{Dir: d.KeysDir}.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range d.Info.Members {
		if m.Name == name {
			return server.SeedMember{UserID: m.UserID, Key: k}
		}
	}
	t.Fatalf("no demo member %s", name)
	return server.SeedMember{}
}

// A profile without refresh has no auto-refresh: p, struck through in help,
// says why it does nothing instead of nothing at all. Against the local service.
func TestEndToEndPauseKeyWithoutRefreshSaysWhy(t *testing.T) {
	d := servertest.StartDemo(t)
	h := demoHarness(t, d, nil)
	before := len(h.msgs)
	h.key("p")
	if !toasted(h.msgs[before:], `auto-refresh is off in this profile (refresh = "30s" turns it on)`) {
		t.Errorf("p without refresh did not say why it does nothing: %v", h.msgs[before:])
	}
	if got := h.activities().Status().AutoRefresh; got != 0 {
		t.Errorf("p turned auto-refresh on (%s) in a profile without refresh", got)
	}
}
