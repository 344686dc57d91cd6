package policy_test

import (
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// A waiting activity is decided at its next approval with the submitter the
// service stored (server/evaluate.go), whichever round's votes still count.
// alice submitted the deletion of her own key (her first vote, in the first
// round, is in the record); that round ended, and she approved again in the
// next one. Her own-credentials permission applies, as it does for the
// service: the simulation must not call the submitter unknown because the
// first vote of the round that counts is not the submission.
func TestDecideNextKnowsTheSubmitterFromTheRecord(t *testing.T) {
	now := time.Now().UTC()
	t0 := now.Add(-30 * time.Hour) // submitted by alice
	t1 := now.Add(-time.Hour)      // alice again, in the second round
	act := api.Activity{ID: "act-1", Type: api.TypeDeleteAPIKeys, Status: api.StatusConsensusNeeded,
		CreatedAt: api.NewTime(t0), UpdatedAt: api.NewTime(t1),
		Intent: api.Intent{DeleteAPIKeysIntent: &api.DeleteAPIKeysParams{UserID: "alice", APIKeyIDs: []string{"k-alice"}}},
		Votes: []api.Vote{
			{ID: "v1", UserID: "alice", Selection: api.VoteApproved, CreatedAt: api.NewTime(t0)},
			{ID: "v2", UserID: "alice", Selection: api.VoteApproved, CreatedAt: api.NewTime(t1)},
		}}
	// What the service decides: the second round's votes, its stored requester.
	round := act
	round.Votes = act.Votes[1:]
	in := policy.InputOfActivity(round, simMembers, now)
	in.Requester = "alice"
	svc := policy.Decide(nil, in, simQuorum, policy.RootOnly(act.Type))

	d, at := policy.DecideNext(nil, act, simMembers, simQuorum, now)
	if d.Outcome != svc.Outcome || at.In.Requester != "alice" || at.In.RequesterUnknown {
		t.Errorf("DecideNext: %s (%s), requester %q; the service decides %s with requester alice",
			d.Outcome, d.Reason, at.In.Requester, svc.Outcome)
	}

	// Once that round too has ended no vote counts, and the record still
	// says who submitted it.
	_, at = policy.DecideNext(nil, act, simMembers, simQuorum, now.Add(24*time.Hour))
	if at.In.Requester != "alice" || at.In.RequesterUnknown {
		t.Errorf("every round ended: requester %q (unknown %v); the record says alice submitted it", at.In.Requester, at.In.RequesterUnknown)
	}
}
