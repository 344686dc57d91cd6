package api_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// replayFirstSubmitReply serves the real service at a URL whose every submit
// after the first is answered with the first one's 200, as a stale cache or
// a broken gateway would, until stop is set.
func replayFirstSubmitReply(demo *servertest.Demo) (url string, stop *atomic.Bool) {
	var mu sync.Mutex
	var first []byte
	stop = new(atomic.Bool)
	return demo.Rewriting(func(op string, request, reply []byte) []byte {
		if !strings.HasPrefix(op, "submit/") || stop.Load() {
			return reply
		}
		mu.Lock()
		defer mu.Unlock()
		if first == nil {
			first = reply
		}
		return first
	}), stop
}

// A 200 carrying another activity than the request's (another type,
// fingerprint) is not the submit's success: the request was sent and may be
// recorded, and the reply does not say as what, so the outcome is unknown.
func TestSubmitAnsweredWithAnotherActivityIsOutcomeUnknown(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()
	url, stop := replayFirstSubmitReply(demo)
	client := demo.ClientAt(url, "alice")
	users := []string{demo.Info.Members[0].UserID}
	firstAct, err := client.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "bound-first", UserIDs: users})
	if err != nil {
		t.Fatal(err)
	}
	got, err := client.CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "bound-policy", Effect: "EFFECT_ALLOW",
		Consensus: "approvers.any(user, user.id == '" + users[0] + "')", Condition: "true"})
	if err == nil {
		t.Fatalf("create_policy answered with activity %s of type %s (the earlier %s's reply) was taken for success", got.ID, got.Type, firstAct.Type)
	}
	if !errors.Is(err, api.ErrOutcomeUnknown) {
		t.Errorf("err = %v, want an unknown outcome", err)
	}
	if !strings.Contains(err.Error(), firstAct.ID) || !strings.Contains(err.Error(), firstAct.Type) {
		t.Errorf("err = %v; want it to name the reply's activity %s and its type %s", err, firstAct.ID, firstAct.Type)
	}
	var unknown *api.OutcomeUnknownError
	if !errors.As(err, &unknown) {
		t.Fatalf("err = %T, want an *OutcomeUnknownError to resend", err)
	}
	// Resent once the replies are the service's, the request gets its own activity.
	stop.Store(true)
	act, err := client.Resubmit(ctx, unknown)
	if err != nil {
		t.Fatalf("resubmit: %v", err)
	}
	if act.Type != api.TypeCreatePolicyV3 {
		t.Errorf("resent request's activity has type %s, want %s", act.Type, api.TypeCreatePolicyV3)
	}
}

// A vote answered with another activity than the one voted on is not the
// vote's outcome.
func TestVoteAnsweredWithAnotherActivityIsOutcomeUnknown(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()
	url, _ := replayFirstSubmitReply(demo)
	client := demo.ClientAt(url, "alice")
	if _, err := client.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "bound-vote", UserIDs: []string{}}); err != nil {
		t.Fatal(err)
	}
	pending, err := demo.Client("alice").ListActivities(ctx, api.ListActivitiesOptions{Statuses: []string{api.StatusConsensusNeeded}})
	if err != nil {
		t.Fatal(err)
	}
	var target *api.Activity
	for i := range pending {
		if pending[i].CanApprove {
			target = &pending[i]
		}
	}
	if target == nil {
		t.Fatal("no pending activity alice may vote on")
	}
	after, err := client.ApproveActivity(ctx, target.Fingerprint)
	if err == nil {
		t.Fatalf("approve_activity of %s answered with activity %s (fingerprint %s) was taken for success", target.Fingerprint, after.ID, after.Fingerprint)
	}
	if !errors.Is(err, api.ErrOutcomeUnknown) || !strings.Contains(err.Error(), target.Fingerprint) {
		t.Errorf("err = %v; want an unknown outcome naming the fingerprint voted on", err)
	}
}

// The replies of the real service, to each kind of submit and to a vote,
// pass the check.
func TestSubmitRepliesOfTheServiceAreTheirRequests(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()
	alice, bob := demo.Client("alice"), demo.Client("bob")
	tag, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "bound-real", UserIDs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	if tag.Status == api.StatusConsensusNeeded {
		if _, err := bob.ApproveActivity(ctx, tag.Fingerprint); err != nil {
			t.Errorf("bob's approval: %v", err)
		}
	}
	if _, _, err := alice.SubmitRaw(ctx, "create_user_tag", &api.CreateUserTagParams{UserTagName: "bound-raw", UserIDs: []string{}}); err != nil {
		t.Errorf("raw submit: %v", err)
	}
}
