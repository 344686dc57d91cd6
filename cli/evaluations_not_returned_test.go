package cli

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// TestEvaluationsRejectionThatKeepsWaitingNotReadAsAllowed a day later.
// alice's rejection left the tag waiting; its evaluation stored
// OUTCOME_ALLOW for the allow policy. 25 hours on, the tag still waits and
// the service returns no vote (the round ended): 'activity evaluations'
// still says that stored ALLOW decided nothing, never a bare
// "OUTCOME_ALLOW  tags need nobody" row.
func TestEvaluationsOfVoteNotReturnedOnWaitingActivityDecidedNothing(t *testing.T) {
	var offset atomic.Int64
	clock := func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	e := newVerbEnvOn(t, clock)
	ctx := context.Background()
	client := func(name string) *api.Client { return e.demo.ClientAt(e.demo.URL, name, api.WithClock(clock)) }
	tag, err := client("operator").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "rejected-waiting-day", UserIDs: []string{}})
	if err != nil || tag.Status != api.StatusConsensusNeeded {
		t.Fatalf("create_user_tag: %+v %v", tag, err)
	}
	pol, err := client("alice").CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "tags need nobody", Effect: api.EffectAllow,
		Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'"})
	if err != nil {
		t.Fatal(err)
	}
	if pol.Status == api.StatusConsensusNeeded {
		if pol, err = client("bob").ApproveActivity(ctx, pol.Fingerprint); err != nil || pol.Status != api.StatusCompleted {
			t.Fatalf("create_policy: %+v %v", pol, err)
		}
	}
	if after, err := client("alice").RejectActivity(ctx, tag.Fingerprint); err != nil || after.Status != api.StatusConsensusNeeded {
		t.Fatalf("after alice's rejection: %+v %v", after, err)
	}
	evs, err := client("alice").GetPolicyEvaluations(ctx, tag.ID)
	if err != nil || len(evs) != 2 {
		t.Fatalf("evaluations %+v %v", evs, err)
	}
	offset.Store(int64(25 * time.Hour))
	now, err := client("alice").GetActivity(ctx, tag.ID)
	if err != nil || now.Status != api.StatusConsensusNeeded {
		t.Fatalf("a day later: %+v %v", now, err)
	}
	code, out, errOut := e.run("", "activity", "evaluations", tag.ID)
	wantExit(t, "evaluations", code, 0, out, errOut)
	t.Logf("a day later (still %s, %d votes returned):\n%s", now.Status, len(now.Votes), out)
	rows := 0
	for _, l := range strings.Split(out, "\n") {
		if !strings.Contains(l, api.SanitizeID(evs[1].ID)) || !strings.Contains(l, "OUTCOME_ALLOW") {
			continue
		}
		rows++
		if !strings.Contains(l, "(the activity still waits: this stored outcome did not complete it)") {
			t.Errorf("alice's rejection's evaluation reads as allowed, the activity still waiting:\n%s", l)
		}
	}
	if rows == 0 {
		t.Errorf("no OUTCOME_ALLOW row for alice's rejection's evaluation:\n%s", out)
	}
}
