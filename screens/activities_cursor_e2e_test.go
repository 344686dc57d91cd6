package screens

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// The cursor is on an activity another member settles: the auto-refresh
// keeps it listed (with its final status, after the pending ones), and the
// cursor stays on it. Were it to fall to the first row, the a typed for the
// row you were on would open the vote on another activity.
func TestCursorStaysOnTheActivityAnotherMemberSettled(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	alice, carol := d.Client("alice"), d.Client("carol")
	h := newHarnessWith(t, alice, alice, theme.Options{Dark: true, NoColor: true}, 30*time.Second)
	a := h.activities()
	// The demo's "delete TVC deployment" has 1/2: carol's approval settles it.
	idx := slices.IndexFunc(a.items, func(it api.Activity) bool { return it.Type == api.TypeDeleteTvcDeployment })
	if idx < 0 {
		t.Fatal("no delete TVC deployment in the demo")
	}
	h.key("g")
	for range idx {
		h.key("j")
	}
	settling := a.items[idx]
	if got := a.selected(); got == nil || got.ID != settling.ID {
		t.Fatalf("cursor not on %s", settling.ID)
	}
	// Another pending activity first, so the top row is not the settling one.
	if _, err := d.Client("bob").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "other", UserIDs: []string{}}); err != nil {
		t.Fatal(err)
	}
	h.send(activitiesTickMsg{gen: h.activities().autoGen})
	if got := h.activities().selected(); got == nil || got.ID != settling.ID {
		t.Fatalf("a new activity moved the cursor off %s", settling.ID)
	}
	if _, err := carol.ApproveActivity(ctx, settling.Fingerprint); err != nil {
		t.Fatal(err)
	}
	h.send(activitiesTickMsg{gen: h.activities().autoGen})
	got := h.activities().selected()
	if got == nil || got.ID != settling.ID {
		what := "nothing"
		if got != nil {
			what = got.ID + " " + got.Type + " " + got.Status
		}
		t.Errorf("after the refresh the cursor is on %s, not on the activity it was on (%s, now settled and still listed)\n%s", what, settling.ID, h.frame())
	} else if got.Status != api.StatusCompleted {
		t.Errorf("the activity under the cursor shows %s, not its final status", got.Status)
	}
}

// An activity under the cursor that leaves the newest page without settling
// (a new arrival pushed it to the older page) cannot stay listed: the cursor
// moves, and a toast says so rather than leaving a, x and enter to act on
// another row unsaid.
func TestCursorOnActivityPushedToOlderPageSaysItMoved(t *testing.T) {
	var acts []api.Activity
	for i := range pageSize {
		acts = append(acts, pendingActivity(fmt.Sprintf("act-%03d", i), "bob", time.Duration(i+1)*time.Minute,
			api.Intent{CreateUserTagIntent: &api.CreateUserTagParams{UserTagName: fmt.Sprintf("t%d", i)}}, api.TypeCreateUserTag))
	}
	fake := &fakeClient{activities: acts}
	h := newHarness(t, fake, false, time.Minute)
	a := h.activities()
	h.key("G")
	oldest := acts[len(acts)-1]
	if got := a.selected(); got == nil || got.ID != oldest.ID {
		t.Fatalf("setup: cursor not on the oldest activity %s", oldest.ID)
	}
	fake.mu.Lock()
	fake.activities = append([]api.Activity{pendingActivity("act-new", "carol", 0,
		api.Intent{CreateUserTagIntent: &api.CreateUserTagParams{UserTagName: "new"}}, api.TypeCreateUserTag)}, fake.activities...)
	fake.mu.Unlock()
	h.msgs = nil
	h.send(activitiesTickMsg{gen: a.autoGen})
	if slices.ContainsFunc(a.items, func(it api.Activity) bool { return it.ID == oldest.ID }) {
		t.Errorf("%s, now on the older page, is still listed on the newest", oldest.ID)
	}
	if !toasted(h.msgs, "the activity under the cursor left the Pending list") {
		t.Errorf("the cursor left %s and nothing said so: %v", oldest.ID, h.msgs)
	}
}
