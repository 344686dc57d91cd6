package server

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// Two users who submit byte-identical bodies in one millisecond (a
// create_read_only_session names no requester) send the same activity: the
// second is a vote on the first (DESIGN.md §4). When the first has already
// ended, the second user's own request is refused; the refusal must say
// so and what to do (a new timestampMs), not "correct the request", and
// the request stamped afresh must be their own activity. Found by audit 209.
func TestSameBodyAsAnotherUsersEndedActivityIsRefusedSayingWhy(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	e.addPolicy("sessions", api.EffectAllow, "activity.type == 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION'", "")
	at := time.Now()
	fixed := func() time.Time { return at }
	op, err := api.NewClient(e.http.URL, e.org.ID, e.keys["operator"], api.WithClock(fixed))
	if err != nil {
		t.Fatal(err)
	}
	alice, err := api.NewClient(e.http.URL, e.org.ID, e.keys["alice"], api.WithClock(fixed))
	if err != nil {
		t.Fatal(err)
	}
	first, err := op.CreateReadOnlySession(ctx)
	if err != nil || first.Status != api.StatusCompleted {
		t.Fatalf("operator's session: %v %+v", err, first)
	}
	_, err = alice.CreateReadOnlySession(ctx)
	var refusal *api.Error
	if !errors.As(err, &refusal) || refusal.StatusCode != 400 || !api.RefusedWith(err, api.ErrorCodeNotVotable) {
		t.Fatalf("alice's identical body on an ended activity: got %v, want 400 NOT_VOTABLE (it is her approval of it, DESIGN.md §4)", err)
	}
	text := err.Error()
	for _, want := range []string{"exactly this body", "another user", first.ID, api.StatusCompleted, "nothing was recorded", "new timestampMs"} {
		if !strings.Contains(text, want) {
			t.Errorf("the refusal does not say %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "correct the request") {
		t.Errorf("the refusal tells alice to correct a request that had nothing wrong:\n%s", text)
	}

	// Stamped afresh, it is her own session.
	fresh, err := api.NewClient(e.http.URL, e.org.ID, e.keys["alice"], api.WithClock(func() time.Time { return at.Add(time.Millisecond) }))
	if err != nil {
		t.Fatal(err)
	}
	second, err := fresh.CreateReadOnlySession(ctx)
	if err != nil {
		t.Fatalf("alice's session stamped afresh: %v", err)
	}
	if second.ID == first.ID {
		t.Fatalf("alice's session stamped afresh answered with operator's activity %s", first.ID)
	}
	if r := second.Result.CreateReadOnlySessionResult; r == nil || r.UserID != e.org.UserIDs["alice"] {
		t.Fatalf("alice got a session that is not hers: %+v", second.Result.CreateReadOnlySessionResult)
	}
}

// The same collision with the first activity still waiting for votes: the
// second user may not vote on it (403 NOT_A_VOTER) or already voted on it
// with another request (409 ALREADY_VOTED). Either keeps the status and
// code approve_activity's refusal has (DESIGN.md §4), but the refusal says
// what happened, that nothing was recorded and what to do (a new
// timestampMs), not "ask an administrator" or "refresh". Found by audit 216.
func TestSameBodyAsAnotherUsersWaitingActivityIsRefusedSayingWhy(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	at := time.Now()
	fixed := func() time.Time { return at }
	client := func(name string) *api.Client {
		c, err := api.NewClient(e.http.URL, e.org.ID, e.keys[name], api.WithClock(fixed))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	first, err := client("alice").CreateReadOnlySession(ctx)
	if err != nil || first.Status != api.StatusConsensusNeeded {
		t.Fatalf("alice's session: %v %+v, want it waiting for a second root member", err, first)
	}
	// carol rejects it; with alice and bob it can still pass, so it waits.
	if a, err := e.clients["carol"].RejectActivity(ctx, first.Fingerprint); err != nil || a.Status != api.StatusConsensusNeeded {
		t.Fatalf("carol's rejection: %v %+v, want the activity still waiting", err, a)
	}
	for _, tc := range []struct {
		who, code string
		status    int
	}{
		{"operator", "NOT_A_VOTER", 403},
		{"carol", "ALREADY_VOTED", 409},
	} {
		_, err := client(tc.who).CreateReadOnlySession(ctx)
		var refusal *api.Error
		if !errors.As(err, &refusal) || refusal.StatusCode != tc.status || !api.RefusedWith(err, tc.code) {
			t.Fatalf("%s's identical body: got %v, want %d %s (it is their approval of alice's activity, DESIGN.md §4)", tc.who, err, tc.status, tc.code)
		}
		text := err.Error()
		for _, want := range []string{"exactly this body", "another user", first.ID, api.StatusConsensusNeeded, "nothing was recorded", "new timestampMs"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: the refusal does not say %q:\n%s", tc.who, want, text)
			}
		}
		for _, wrong := range []string{"ask an administrator", "refresh and use the existing one"} {
			if strings.Contains(text, wrong) {
				t.Errorf("%s: the refusal advises %q for a request that voted on nothing:\n%s", tc.who, wrong, text)
			}
		}
	}
	got, err := e.clients["alice"].GetActivity(ctx, first.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Votes) != 2 || got.Status != api.StatusConsensusNeeded {
		t.Errorf("alice's activity after the refused collisions: %s with %d votes, want %s with alice's and carol's", got.Status, len(got.Votes), api.StatusConsensusNeeded)
	}
}
