package screens

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// An intent of a known operation holding one member vigil does not know (the
// real service adding a field, or a proxy) is not read loosely: its params
// are unread. The vote dialog's "if you approve" line must then not be
// worked out on empty params and stated as fact (here it would say the
// activity still waits, while the service, which reads the params, runs it
// on this approval): it says the console cannot tell. So for an intent of
// several operations, and for a rejection.
func TestVoteConsequenceOnAnIntentItCannotReadSaysItCannotTell(t *testing.T) {
	now := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	users := []api.User{{UserID: "u-root1", UserName: "root1"}, {UserID: "u-root2", UserName: "root2"}, {UserID: "u-op", UserName: "op"}}
	quorum := api.Quorum{Threshold: 2, UserIDs: []string{"u-root1", "u-root2"}}
	predict := func(intent string, approve bool) string {
		var in api.Intent
		if err := json.Unmarshal([]byte(intent), &in); err != nil {
			t.Fatal(err)
		}
		act := pendingActivity("act-tag", "op", time.Minute, in, api.TypeCreateUserTag)
		c := &Common{Now: func() time.Time { return now }}
		c.Org.UserID = "u-root1"
		c.Org.Eval = newEvaluationContext(nil, users, api.OrganizationConfigs{Quorum: quorum}, []api.Policy{{PolicyID: "p1", PolicyName: "ops tag with one root",
			Effect: api.EffectAllow, Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG' && activity.params.userTagName == 'ops'",
			Consensus: "approvers.any(u, u.id == 'u-root1')"}})
		return voteConsequence(c, &act, approve)
	}
	known := predict(`{"createUserTagIntent":{"userTagName":"ops","userIds":["u-op"]}}`, true)
	if !strings.Contains(known, "runs now") {
		t.Fatalf("known shape: %s", known)
	}
	for _, intent := range []string{
		`{"createUserTagIntent":{"userTagName":"ops","userIds":["u-op"],"comment":"quarterly"}}`,
		`{"createUserTagIntent":{"userTagName":"ops","userIds":["u-op"]},"deleteApiKeysIntent":{"userId":"u-op","apiKeyIds":["k1"]}}`,
	} {
		unread := predict(intent, true)
		if !strings.HasPrefix(unread, "cannot tell: vigil cannot read this intent's parameters") {
			t.Errorf("%s: with the params unread the dialog still predicts, on empty params:\n  unread: if you approve: %s\n  known shape:  if you approve: %s", intent, unread, known)
		}
		if rejected := predict(intent, false); !strings.HasPrefix(rejected, "cannot tell") {
			t.Errorf("%s: if you reject: %s", intent, rejected)
		}
	}
}
