package policy

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// With no policy at all, a submission by a member outside the root quorum
// fails by implicit deny: no root member approved, so the root quorum
// decided nothing, and simulate's decidedBy must not name it.
func TestDeciderOfImplicitDenyWithNoPolicyIsNotRootQuorum(t *testing.T) {
	quorum := QuorumOf(api.Quorum{Threshold: 2, UserIDs: []string{"u-alice", "u-bob"}})
	in := Input{Activity: ActivityFor(api.TypeCreateUserTag, nil), Approvers: []Approver{{ID: "u-op", Name: "operator"}}}
	d := Decide(nil, in, quorum, false)
	if d.Outcome != api.OutcomeDenyImplicit {
		t.Fatalf("outcome %s, want implicit deny (%s)", d.Outcome, d.Reason)
	}
	if got := Decider(d); strings.Contains(got, "root quorum") {
		t.Errorf("decided by %q: no root member approved, no policy ran", got)
	}
}
