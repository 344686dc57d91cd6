package cli

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// TestPolicySimulateNamesOnlyWhoMayVote: vigil policy simulate names as
// those who could still approve only the members the service would let vote
// now. A policy asking for any two approvals of the demo's pending
// delete_api_keys was active when bob approved it, and no longer is: the
// service now refuses operator's vote (NOT_A_VOTER), so the simulation must
// not tell a security engineer that operator's approval could complete it.
// A draft asking for a consensus on it would make operator a voter again,
// and is explained so.
func TestPolicySimulateNamesOnlyWhoMayVote(t *testing.T) {
	var skew atomic.Int64 // the service's clock, behind this machine's
	skew.Store(int64(-3 * time.Hour))
	clock := func() time.Time { return time.Now().Add(time.Duration(skew.Load())) }
	e := newVerbEnvOn(t, clock)
	ctx := context.Background()
	at := func(member string) *api.Client { return e.demo.ClientAt(e.demo.URL, member, api.WithClock(clock)) }
	pending, err := at("alice").ListActivities(ctx, api.ListActivitiesOptions{Statuses: []string{api.StatusConsensusNeeded},
		Types: []string{api.TypeDeleteAPIKeys}, Limit: 10})
	if err != nil || len(pending) != 1 {
		t.Fatalf("the demo has one pending delete_api_keys: %v %v", pending, err)
	}
	act := pending[0]
	until := time.Now().Add(-2 * time.Hour).UTC().Format(time.RFC3339)
	p, err := at("carol").CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "two approvals, for an hour", Effect: api.EffectAllow,
		Condition: "activity.type == '" + api.TypeDeleteAPIKeys + "'", Consensus: "approvers.count() >= 2",
		Time: "time.now < timestamp('" + until + "')"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := at("bob").ApproveActivity(ctx, p.Fingerprint); err != nil {
		t.Fatal(err)
	}
	if got, err := at("operator").GetActivity(ctx, act.ID); err != nil || !got.CanApprove {
		t.Fatalf("while the policy is active operator should be offered the vote: %v %+v", err, got)
	}

	skew.Store(0) // the policy's hour is over
	if got, err := at("operator").GetActivity(ctx, act.ID); err != nil || got.CanApprove {
		t.Fatalf("once the policy is inactive operator should not be offered the vote: %v %+v", err, got)
	}
	if _, err := at("operator").ApproveActivity(ctx, act.Fingerprint); err == nil || !strings.Contains(err.Error(), "NOT_A_VOTER") {
		t.Fatalf("operator's approval: %v, want it refused as NOT_A_VOTER", err)
	}

	simulate := func(args ...string) simulationReport {
		t.Helper()
		code, out, errOut := e.run("", append([]string{"policy", "simulate", "--json", "--activity", act.ID}, args...)...)
		wantExit(t, "simulate", code, 0, out, errOut)
		var rep simulationReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("--json: %v\n%s", err, out)
		}
		return rep
	}
	rep := simulate("--effect", "deny", "--condition", "false")
	// Decided now, as at its next approval, the policy's hour is over: it
	// waits for the root quorum, whose members alone may still approve.
	if !strings.Contains(rep.Today.Why, "root quorum has 1 of 2") {
		t.Fatalf("today: %q, want it waiting for the root quorum (the policy's hour is over)", rep.Today.Why)
	}
	for _, why := range []string{rep.Today.Why, rep.WithDraft.Why} {
		if strings.Contains(why, "operator") {
			t.Errorf("the simulation names operator, whom the service refuses as NOT_A_VOTER: %q", why)
		}
	}

	// A draft asking any three approvals makes operator a voter once stored.
	rep = simulate("--effect", "allow", "--condition", "activity.type == '"+api.TypeDeleteAPIKeys+"'", "--consensus", "approvers.count() >= 3")
	if !strings.Contains(rep.WithDraft.Why, `"operator"`) {
		t.Errorf("with a draft asking for a consensus operator may vote, yet the simulation says %q", rep.WithDraft.Why)
	}
}
