package screens

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// The policy evaluations of an activity name the member whose
// rejection ended it from the user list, not by the vote's own "user" label,
// which no signature covers: a reply may call alice's rejection bob's.
func TestEvaluationNamesTheRejecterFromTheUserList(t *testing.T) {
	users := []api.User{{UserID: "u-alice", UserName: "alice"}, {UserID: "u-bob", UserName: "bob"}}
	ec := newEvaluationContext(nil, users, api.OrganizationConfigs{}, nil)
	a := api.Activity{ID: "act-1", Type: api.TypeDeleteAPIKeys, Status: api.StatusRejected,
		Votes: []api.Vote{
			{ID: "v1", UserID: "u-bob", Selection: api.VoteApproved, User: api.User{UserID: "u-bob", UserName: "bob"}},
			// alice's rejection, relabelled "bob" by the reply.
			{ID: "v2", UserID: "u-alice", Selection: api.VoteRejected, User: api.User{UserID: "u-alice", UserName: "bob"}},
		}}
	e := api.PolicyEvaluation{VoteID: "v2", PolicyEvaluations: []api.PolicyOutcome{{Outcome: api.OutcomeRejected}}}
	out := explainEvaluation(ec, a, e)
	if strings.Contains(out.Why, `"bob"'s rejection`) || !strings.Contains(out.Why, "alice") {
		t.Errorf("alice's rejection, relabelled bob by the reply, is explained as bob's: %q", out.Why)
	}
}
