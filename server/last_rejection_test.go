package server

import (
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// TestLastVotersRejectionSettlesActivity: a policy created while an activity
// waits allows it with the approvals it already has, but a rejection never
// executes anything. Once the last member who may vote rejects it, it is
// REJECTED (docs/policy-language.md, "the last member's rejection always
// settles it"), not left waiting with nobody able to vote until its
// approvals expire and the requester's approval alone completes it.
func TestLastVotersRejectionSettlesActivity(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2})
	ctx := ctxT(t)
	at := e.skewed
	x, err := at("bob").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "wedged", UserIDs: []string{}})
	if err != nil || x.Status != api.StatusConsensusNeeded {
		t.Fatalf("submit: %v %+v", err, x)
	}
	// No consensus: operator (not root) is offered no vote on it.
	e.addPolicy("tags are free", api.EffectAllow, "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'", "")

	// carol may still vote: alice's rejection leaves it pending.
	first, err := at("alice").RejectActivity(ctx, x.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	if first.Status != api.StatusConsensusNeeded {
		t.Fatalf("after alice's rejection: %s, want still %s (carol may still vote)", first.Status, api.StatusConsensusNeeded)
	}
	last, err := at("carol").RejectActivity(ctx, x.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	if last.Status != api.StatusRejected {
		t.Fatalf("after the last voter's rejection the activity is %s with %d votes, want %s: nobody is left who may vote on it",
			last.Status, len(last.Votes), api.StatusRejected)
	}
	for name := range e.clients {
		got, err := at(name).GetActivity(ctx, x.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.CanApprove || got.CanReject {
			t.Errorf("%s is offered a vote on a rejected activity", name)
		}
	}

	// REJECTED is final: once the round's approvals would have expired, the
	// requester's approval is refused and completes nothing.
	e.skew.Add(int64(25 * time.Hour))
	if got, err := at("bob").ApproveActivity(ctx, x.Fingerprint); err == nil {
		t.Fatalf("bob's approval after 25 h was accepted: %+v", got)
	}
	got, err := at("alice").GetActivity(ctx, x.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != api.StatusRejected {
		t.Fatalf("after 25 h the activity is %s, want still %s", got.Status, api.StatusRejected)
	}
}
