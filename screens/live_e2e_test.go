package screens

import (
	"context"
	"strings"
	"testing"
	"time"

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
	member := func(name string) server.SeedMember {
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
