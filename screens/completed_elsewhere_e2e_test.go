package screens

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// An older activity that completes elsewhere (a policy two other members
// settle) reloads the organization whichever view, page or detail showed it
// waiting: the vote dialog then predicts from the policies the service holds.
// Each case pushes the policy out of the root's org watch (the 5 newest
// activities) with read-only sessions, which change no records, so that the
// reload is the Activities screen's. Against the local service.

// tagAndPolicy has the operator propose a user tag, waiting for the root
// quorum, then bob propose a policy under which carol's approval alone
// lets it run; it returns both, waiting.
func tagAndPolicy(t *testing.T, d *servertest.Demo) (tag, pol *api.Activity) {
	t.Helper()
	tag = proposeWatchedTag(t, d)
	return tag, proposeCarolAlonePolicy(t, d)
}

// proposeWatchedTag has the operator propose the user tag "watched",
// waiting for the root quorum.
func proposeWatchedTag(t *testing.T, d *servertest.Demo) *api.Activity {
	t.Helper()
	tag, err := d.Client("operator").CreateUserTag(context.Background(), api.CreateUserTagParams{UserTagName: "watched", UserIDs: []string{memberID(t, d, "operator")}})
	if err != nil || tag.Status != api.StatusConsensusNeeded {
		t.Fatalf("operator's tag: %v %+v", err, tag)
	}
	return tag
}

// proposeCarolAlonePolicy has bob propose "carol alone allows tags", under
// which carol's approval alone lets a user tag run; it waits for the root
// quorum (completeElsewhere completes it).
func proposeCarolAlonePolicy(t *testing.T, d *servertest.Demo) *api.Activity {
	t.Helper()
	pol, err := d.Client("bob").CreatePolicy(context.Background(), api.CreatePolicyParams{PolicyName: "carol alone allows tags",
		Effect: api.EffectAllow, Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'",
		Consensus: "approvers.any(u, u.id == '" + memberID(t, d, "carol") + "')", Notes: "n"})
	if err != nil || pol.Status != api.StatusConsensusNeeded {
		t.Fatalf("bob's policy: %v %+v", err, pol)
	}
	return pol
}

// pushOutOfWatch has the operator open read-only sessions until the org
// watch's newest activities hold none of the others. It reads the newest
// itself rather than count sessions: a session request the service takes
// for a retry of the one before (the same body) adds no activity, and a
// policy left in the watch's look would make the watch, not the path under
// test, reload the organization.
func pushOutOfWatch(t *testing.T, d *servertest.Demo) {
	t.Helper()
	ctx := context.Background()
	for range 4 * watchLimit {
		newest, err := d.Client("operator").ListActivities(ctx, api.ListActivitiesOptions{Limit: watchLimit})
		if err != nil {
			t.Fatalf("newest activities: %v", err)
		}
		if len(newest) == watchLimit && !slices.ContainsFunc(newest, func(a api.Activity) bool { return a.Type != api.TypeCreateReadOnlySession }) {
			return
		}
		if _, err := d.Client("operator").CreateReadOnlySession(ctx); err != nil {
			t.Fatalf("read-only session: %v", err)
		}
	}
	t.Fatalf("set-up: %d read-only sessions did not fill the org watch's %d newest", 4*watchLimit, watchLimit)
}

// completeElsewhere has alice approve pol: with bob's request, the root
// quorum, so it completes.
func completeElsewhere(t *testing.T, d *servertest.Demo, pol *api.Activity) {
	t.Helper()
	done, err := d.Client("alice").ApproveActivity(context.Background(), pol.Fingerprint)
	if err != nil || done.Status != api.StatusCompleted {
		t.Fatalf("alice's approval: %v %+v", err, done)
	}
}

// unseenByWatch fails the test when a look of the org watch showed the
// activity id: the reload under test must come from the Activities screen.
func (h *harness) unseenByWatch(id string) {
	h.t.Helper()
	for _, msg := range h.msgs {
		if look, ok := msg.(orgWatchedMsg); ok && slices.ContainsFunc(look.items, func(a api.Activity) bool { return a.ID == id }) {
			h.t.Fatalf("set-up: the org watch's look showed %s, so it, not the Activities screen, may reload the organization", id)
		}
	}
}

// holdsPolicy reports whether the console's organization holds the policy
// named name.
func (h *harness) holdsPolicy(name string) bool {
	for _, p := range h.root.common.Org.Policies {
		if p.PolicyName == name {
			return true
		}
	}
	return false
}

// In the All view, the policy's row turns COMPLETED at a refresh: the
// organization is reloaded, the Policies screen lists the policy, and the
// vote dialog open on the tag restates its prediction.
func TestAllViewCompletionReloadsTheOrganization(t *testing.T) {
	d := servertest.StartDemo(t)
	tag, pol := tagAndPolicy(t, d)
	pushOutOfWatch(t, d)
	h := memberConsole(t, d.Client("carol"))
	h.key("@Policies") // loaded, so a reload must bring the policy to it
	h.key("@Activities")
	h.key("v")
	a := h.activities()
	if !a.all {
		t.Fatal("set-up: v did not show the All view")
	}
	h.run(a.load()) // the org watch's first look is behind it
	h.selectActivityID(tag.ID)
	h.key("a")
	if before := h.frame(); !strings.Contains(before, "if you approve: it still waits") {
		t.Fatalf("set-up: the dialog does not say carol's approval leaves it waiting:\n%s", before)
	}

	completeElsewhere(t, d, pol)
	h.run(a.load())
	h.unseenByWatch(pol.ID)
	if !h.holdsPolicy("carol alone allows tags") {
		t.Errorf("the All view showed the policy COMPLETED, and the organization was not reloaded: %d policies held", len(h.root.common.Org.Policies))
	}
	body, _ := dialogBody(t, h.frame(), "Approve this activity?")
	after := strings.Join(strings.Fields(strings.Join(body, " ")), " ")
	if strings.Contains(after, "it still waits") || !strings.Contains(after, `allowed by policy "carol alone allows tags"`) || !strings.Contains(after, "changed while open") {
		t.Errorf("the open dialog still predicts from the policies before the new one, or does not say it changed:\n%s", h.frame())
	}
	h.key("esc")
	h.key("@Policies")
	if frame := h.frame(); !strings.Contains(frame, "carol alone allows tags") {
		t.Errorf("the Policies screen does not list the completed policy:\n%s", frame)
	}
}

// A detail opened from the All view reads its record again and finds it
// completed: the organization is reloaded.
func TestAllViewDetailCompletionReloadsTheOrganization(t *testing.T) {
	d := servertest.StartDemo(t)
	_, pol := tagAndPolicy(t, d)
	pushOutOfWatch(t, d)
	h := memberConsole(t, d.Client("carol"))
	h.key("v")
	a := h.activities()
	h.selectActivityID(pol.ID)
	h.key("enter")
	if a.detail == nil || a.detail.activity.ID != pol.ID {
		t.Fatal("set-up: enter did not open the policy's detail")
	}
	if h.holdsPolicy("carol alone allows tags") {
		t.Fatal("set-up: the policy is held before it completed")
	}

	completeElsewhere(t, d, pol)
	h.run(a.detail.loadRecord(a.c)) // the detail follows its activity (the auto-refresh's read)
	if a.detail.activity.Status != api.StatusCompleted {
		t.Fatalf("set-up: the detail shows %s", a.detail.activity.Status)
	}
	if !h.holdsPolicy("carol alone allows tags") {
		t.Errorf("the open detail showed the policy COMPLETED, and the organization was not reloaded: %d policies held", len(h.root.common.Org.Policies))
	}
}

// On an older page of Pending (more than a page pending), the policy leaves
// the page completed: the organization is reloaded.
func TestOlderPendingPageCompletionReloadsTheOrganization(t *testing.T) {
	d := servertest.StartDemo(t)
	_, pol := tagAndPolicy(t, d)
	backlog(t, d, pageSize+10) // after the policy: it is on the older page
	h := memberConsole(t, d.Client("carol"))
	a := olderPendingPage(t, h)
	h.selectActivityID(pol.ID)

	completeElsewhere(t, d, pol)
	h.run(a.load())
	if !h.holdsPolicy("carol alone allows tags") {
		t.Errorf("the policy left the older page COMPLETED, and the organization was not reloaded: %d policies held", len(h.root.common.Org.Policies))
	}
}

// A completion is told once, and only of an activity a copy showed waiting:
// a copy read before it completed and handed after (a list answered late)
// does not make the next copy tell it again.
func TestWaitingSeenTellsACompletionOnce(t *testing.T) {
	copyOf := func(id, typ, status string) []*api.Activity {
		return []*api.Activity{{ID: id, Type: typ, Status: status}}
	}
	var w waitingSeen
	steps := []struct {
		copies []*api.Activity
		want   bool
	}{
		{copyOf("done-before", api.TypeCreatePolicyV3, api.StatusCompleted), false}, // never seen waiting
		{copyOf("p", api.TypeCreatePolicyV3, api.StatusConsensusNeeded), false},
		{copyOf("p", api.TypeCreatePolicyV3, api.StatusCompleted), true},
		{copyOf("p", api.TypeCreatePolicyV3, api.StatusConsensusNeeded), false}, // read before it completed
		{copyOf("p", api.TypeCreatePolicyV3, api.StatusCompleted), false},
		{copyOf("s", api.TypeCreateReadOnlySession, api.StatusConsensusNeeded), false},
		{copyOf("s", api.TypeCreateReadOnlySession, api.StatusCompleted), false}, // changes no records
		{copyOf("r", api.TypeCreateUserTag, api.StatusConsensusNeeded), false},
		{copyOf("r", api.TypeCreateUserTag, api.StatusRejected), false},
	}
	for i, s := range steps {
		if got := len(w.completedIn(s.copies)) > 0; got != s.want {
			t.Errorf("copy %d (%s %s): told %v, want %v", i, s.copies[0].ID, s.copies[0].Status, got, s.want)
		}
	}
}

// Past waitingKnown, the waiting ones seen longest ago are forgotten; the
// completion of one of them is still told (a completed copy created in
// their span), while one created before any forgotten (never seen waiting)
// is not.
func TestWaitingSeenTellsTheCompletionOfAForgottenOne(t *testing.T) {
	at := func(id, status string, created time.Time) []*api.Activity {
		return []*api.Activity{{ID: id, Type: api.TypeCreatePolicyV3, Status: status, CreatedAt: api.NewTime(created)}}
	}
	var w waitingSeen
	w.completedIn(at("p", api.StatusConsensusNeeded, testNow))
	for i := range waitingKnown {
		w.completedIn(at(fmt.Sprintf("newer-%d", i), api.StatusConsensusNeeded, testNow.Add(time.Duration(i+1)*time.Second)))
	}
	if _, kept := w.seen["p"]; kept {
		t.Fatalf("set-up: %d newer waiting activities did not make the console forget the oldest", waitingKnown)
	}
	if got := w.completedIn(at("p", api.StatusCompleted, testNow)); !slices.Equal(got, []string{"p"}) {
		t.Errorf("the completion of a waiting activity forgotten past the bound was not told: %q", got)
	}
	if got := w.completedIn(at("older", api.StatusCompleted, testNow.Add(-time.Hour))); len(got) != 0 {
		t.Errorf("a completed activity created before any forgotten one was told: %q", got)
	}
	if got := w.completedIn(at("p", api.StatusCompleted, testNow)); len(got) != 0 {
		t.Errorf("the forgotten one's completion was told twice: %q", got)
	}
}
