package screens

import (
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// TestRejectDialogCountsOnlyMembersWhoMayVote: the reject dialog's
// prediction counts as possible approvers only the members the service would
// still let vote (root members, and others only where a matching policy asks
// for a consensus), as the service does when it settles a rejection
// (TestLastVotersRejectionSettlesActivity). carol, the last root member who
// has not voted, is about to reject an activity that a policy created while
// it waited already allows with the requester's approval; op may not vote
// (no policy asks for a consensus), so her rejection makes it REJECTED.
func TestRejectDialogCountsOnlyMembersWhoMayVote(t *testing.T) {
	users := []api.User{{UserID: "u-alice", UserName: "alice"}, {UserID: "u-bob", UserName: "bob"}, {UserID: "u-carol", UserName: "carol"}, {UserID: "u-op", UserName: "op"}}
	quorum := api.Quorum{Threshold: 2, UserIDs: []string{"u-alice", "u-bob", "u-carol"}}
	rejectedBy := func(voters ...string) api.Activity {
		act := pendingActivity("act-tag", "bob", time.Minute,
			api.Intent{CreateUserTagIntent: &api.CreateUserTagParams{UserTagName: "t", UserIDs: []string{}}}, api.TypeCreateUserTag)
		for _, name := range voters {
			act.Votes = append(act.Votes, api.Vote{ID: "v-" + name, UserID: "u-" + name, User: api.User{UserName: name}, ActivityID: act.ID,
				Selection: api.VoteRejected, CreatedAt: api.NewTime(testNow.Add(-30 * time.Second))})
		}
		return act
	}
	predict := func(me string, act api.Activity, consensus string) string {
		c := &Common{Now: func() time.Time { return testNow }}
		c.Org.UserID = "u-" + me
		c.Org.Eval = newEvaluationContext(nil, users, api.OrganizationConfigs{Quorum: quorum}, []api.Policy{{PolicyID: "p1", PolicyName: "tags",
			Effect: api.EffectAllow, Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'", Consensus: consensus}})
		return voteConsequence(c, &act, false)
	}

	// carol is the last who may vote: op is offered no vote.
	if got := predict("carol", rejectedBy("alice"), ""); !strings.Contains(got, "REJECTED") {
		t.Errorf("carol is the last member who may vote, yet the reject dialog says %q, not that her rejection makes it REJECTED", got)
	}
	// alice rejecting first leaves carol, who may vote: it stays pending.
	if got := predict("alice", rejectedBy(), ""); !strings.Contains(got, "stays pending") {
		t.Errorf("carol may still vote after alice's rejection, yet the reject dialog says %q", got)
	}
	// A policy that asks for a consensus offers op the vote: op counts, and
	// can still approve it.
	if got := predict("carol", rejectedBy("alice"), "approvers.count() >= 2"); !strings.Contains(got, "stays pending") {
		t.Errorf("op may still vote (a policy asks for a consensus) and can meet it, yet the reject dialog says %q", got)
	}
}
