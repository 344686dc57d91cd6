package server

import (
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// operatorFromInAnHour adds an allow policy that asks for the operator's
// approval of user tags, active from an hour after now, and submits a tag
// (alice) that waits for consensus.
func operatorFromInAnHour(t *testing.T) (*testEnv, *api.Activity) {
	t.Helper()
	e := newEnvWith(t, envOptions{threshold: 2})
	from := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	e.addTimedPolicy(api.CreatePolicyParams{PolicyName: "operator approves tags from in an hour", Effect: api.EffectAllow,
		Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'", Consensus: "approvers.any(a, a.name == 'operator')",
		Time: "time.now >= Timestamp('" + from + "')"})
	act, err := e.clients["alice"].CreateUserTag(ctxT(t), api.CreateUserTagParams{UserTagName: "t", UserIDs: []string{}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("submit: %v %+v", err, act)
	}
	return e, act
}

// twoHoursOn moves the service's clock two hours on, and returns a client of
// name's whose stamps are dated by that clock.
func (e *testEnv) twoHoursOn(name string) *api.Client {
	e.t.Helper()
	e.skew.Store(int64(2 * time.Hour))
	c, err := api.NewClient(e.http.URL, e.org.ID, e.keys[name], api.WithClock(func() time.Time { return time.Now().Add(2 * time.Hour) }))
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

// Who may vote on an activity is remembered per activity, but a policy's
// time expression changes the answer with the clock alone: once the policy's
// window opens, the member it asks for is offered the vote and counted.
func TestVotersFollowAPolicysTime(t *testing.T) {
	e, act := operatorFromInAnHour(t)
	ctx := ctxT(t)
	got, err := e.clients["operator"].GetActivity(ctx, act.ID)
	if err != nil || got.CanApprove {
		t.Fatalf("before the policy's time: %v canApprove=%v, want false", err, got.CanApprove)
	}
	operator := e.twoHoursOn("operator")
	got, err = operator.GetActivity(ctx, act.ID)
	if err != nil || !got.CanApprove {
		t.Errorf("inside the policy's time: %v canApprove=%v, want true", err, got.CanApprove)
	}
	if done, err := operator.ApproveActivity(ctx, act.Fingerprint); err != nil || done.Status != api.StatusCompleted {
		t.Errorf("inside the policy's time the operator's approval completes it: %v %+v", err, done)
	}
}

// The same answer decides whether a rejection leaves consensus reachable:
// an answer remembered from before the window opened would leave the
// operator out of the potential approvers and reject, for good, an activity
// their approval still completes.
func TestRejectionCountsAMemberAPolicysTimeNowAsks(t *testing.T) {
	e, act := operatorFromInAnHour(t)
	ctx := ctxT(t)
	if _, err := e.clients["operator"].GetActivity(ctx, act.ID); err != nil {
		t.Fatal(err)
	}
	operator := e.twoHoursOn("operator")
	for _, name := range []string{"bob", "carol"} {
		got, err := e.twoHoursOn(name).RejectActivity(ctx, act.Fingerprint)
		if err != nil {
			t.Fatalf("%s rejects: %v", name, err)
		}
		if got.Status == api.StatusRejected {
			t.Fatalf("after %s's rejection: REJECTED, although the operator's approval (the policy is active) still completes it", name)
		}
	}
	if done, err := operator.ApproveActivity(ctx, act.Fingerprint); err != nil || done.Status != api.StatusCompleted {
		t.Errorf("the operator approves inside the policy's time: %v %+v", err, done)
	}
}
