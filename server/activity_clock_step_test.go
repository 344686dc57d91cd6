package server

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// list_activities is newest first by submission; after the service's clock
// steps back (NTP, a resumed VM), a new activity's createdAt and its id's
// UUIDv7 time must not go before those of the activity submitted before it,
// or a page lists an activity above one created later than it.
func TestActivityCreatedAtNeverGoesBackAfterClockStep(t *testing.T) {
	for _, restarted := range []bool{false, true} {
		t.Run(map[bool]string{false: "running", true: "restarted"}[restarted], func(t *testing.T) {
			createdAtNeverGoesBack(t, restarted)
		})
	}
}

// createdAtNeverGoesBack submits an activity, steps the clock back a minute
// and submits another; restarted forgets the organization's newest creation
// time in between, as a service started on the same data would.
func createdAtNeverGoesBack(t *testing.T, restarted bool) {
	e := newEnvWith(t, envOptions{threshold: 2})
	ctx := ctxT(t)
	now := time.Now()
	e.pin(now)
	if _, err := e.clients["alice"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "first", UserIDs: []string{e.user("carol")}}); err != nil {
		t.Fatal(err)
	}
	if restarted {
		e.srv.latest.forget(e.org.ID)
	}
	e.pin(now.Add(-time.Minute)) // the clock steps back a minute
	if _, err := e.clients["alice"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "second", UserIDs: []string{e.user("carol")}}); err != nil {
		t.Fatal(err)
	}
	acts, err := e.clients["carol"].ListActivities(ctx, api.ListActivitiesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(acts) < 2 {
		t.Fatalf("listed %d activities, want the 2 submitted", len(acts))
	}
	for i := 1; i < len(acts); i++ {
		newer, older := acts[i-1], acts[i]
		if older.CreatedAt.Time().After(newer.CreatedAt.Time()) {
			t.Errorf("not newest first: %s (created %v) listed above %s (created %v)", newer.ID, newer.CreatedAt.Time(), older.ID, older.CreatedAt.Time())
		}
		if uuidMillis(t, older.ID) > uuidMillis(t, newer.ID) {
			t.Errorf("id %s listed above %s carries an earlier time", newer.ID, older.ID)
		}
		if newer.UpdatedAt.Time().Before(newer.CreatedAt.Time()) {
			t.Errorf("%s updated (%v) before it was created (%v)", newer.ID, newer.UpdatedAt.Time(), newer.CreatedAt.Time())
		}
	}
}

// uuidMillis is the Unix time in milliseconds a UUIDv7 carries.
func uuidMillis(t *testing.T, id string) int64 {
	t.Helper()
	h := strings.ReplaceAll(id, "-", "")
	if len(h) != 32 {
		t.Fatalf("%q is not a UUID", id)
	}
	ms, err := strconv.ParseInt(h[:12], 16, 64)
	if err != nil {
		t.Fatalf("%q is not a UUID: %v", id, err)
	}
	return ms
}

// After a clock that ran ahead was corrected (a step back beyond the clamp)
// and then slewed back a little more (within it), the small step is
// absorbed: the activity submitted next is not dated before the one
// submitted just before it (audit 149: the remembered time was the latest
// ever, not the newest activity's).
func TestSmallClockStepAfterALargeOneIsStillAbsorbed(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2})
	ctx := ctxT(t)
	now := time.Now()
	// alice's clock follows the service's, so her stamps stay fresh.
	alice, err := api.NewClient(e.http.URL, e.org.ID, e.keys["alice"], api.WithClock(e.clock))
	if err != nil {
		t.Fatal(err)
	}
	tag := func(name string) {
		t.Helper()
		if _, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: name, UserIDs: []string{e.user("carol")}}); err != nil {
			t.Fatal(err)
		}
	}
	e.pin(now)
	tag("a")
	e.pin(now.Add(-10 * time.Minute)) // beyond the clamp: dated at the clock
	tag("b")
	e.pin(now.Add(-11 * time.Minute)) // within it: dated as b
	tag("c")
	acts, err := e.clients["carol"].ListActivities(ctx, api.ListActivitiesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(acts) < 3 {
		t.Fatalf("listed %d activities, want the 3 submitted", len(acts))
	}
	c, b := acts[0], acts[1]
	if c.CreatedAt.Time().Before(b.CreatedAt.Time()) {
		t.Errorf("%s submitted after %s is dated before it: %v < %v", c.ID, b.ID, c.CreatedAt.Time(), b.CreatedAt.Time())
	}
}
