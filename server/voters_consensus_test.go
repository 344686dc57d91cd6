package server

import (
	"testing"

	"github.com/vigil-console/vigil/api"
)

// An allow policy whose condition holds and whose consensus needs at
// least one approver to evaluate (approvers[0]…) asks for the operator's
// approval: the service offers the operator the vote and takes it (who may
// vote reads the policies' time and condition, never a consensus run on no
// approvers, whose error read as "no policy asks").
func TestConsensusNeedingApproversStillOffersTheVote(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2})
	ctx := ctxT(t)
	e.addPolicy("first approver decides", api.EffectAllow,
		"activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'", "approvers[0].name == 'operator'")
	act, err := e.clients["alice"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "t", UserIDs: []string{}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("submit: %v %+v", err, act)
	}
	got, err := e.clients["operator"].GetActivity(ctx, act.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !got.CanApprove {
		t.Errorf("operator not offered the vote that the policy's consensus asks for")
	}
	if _, err := e.clients["operator"].ApproveActivity(ctx, act.Fingerprint); err != nil {
		t.Fatalf("operator's approval refused: %v", err)
	}
}
