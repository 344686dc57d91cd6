package cli

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// policy simulate decides a waiting activity at the service's time, as the
// service will at its next approval. alice's approval of her tag is 24
// hours and 30 seconds old by this machine's clock, which runs 4.5 minutes
// ahead of the service's (a skew the service still takes requests at): by
// the service's clock its round has not ended, so her approval still
// counts. A draft that a single approval satisfies allows it then.
func TestPolicySimulateDecidesAWaitingActivityAtTheServiceTime(t *testing.T) {
	var skew atomic.Int64 // the service's clock minus this machine's
	skew.Store(int64(-(24*time.Hour + 30*time.Second)))
	clock := func() time.Time { return time.Now().Add(time.Duration(skew.Load())) }
	e := newVerbEnvOn(t, clock)
	ctx := context.Background()
	at := func(member string) *api.Client { return e.demo.ClientAt(e.demo.URL, member, api.WithClock(clock)) }
	act, err := at("alice").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "late round", UserIDs: []string{e.userID("bob")}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("alice's tag waits for the root quorum: %+v %v", act, err)
	}

	skew.Store(int64(-4*time.Minute - 30*time.Second))
	code, out, errOut := e.run("", "policy", "simulate", "--json", "--activity", act.ID, "--effect", "allow",
		"--condition", "activity.type == '"+api.TypeCreateUserTag+"'", "--consensus", "approvers.count() >= 1")
	wantExit(t, "simulate", code, 0, out, errOut)
	var rep simulationReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	if rep.WithDraft.Outcome != api.OutcomeAllow {
		t.Errorf("the simulation drops alice's approval, whose round the service still counts: today %q; with the draft %s (%q)",
			rep.Today.Why, rep.WithDraft.Outcome, rep.WithDraft.Why)
	}

	// The service agrees: alice's approval counts, and bob's completes it.
	got, err := at("bob").ApproveActivity(ctx, act.Fingerprint)
	if err != nil || got.Status != api.StatusCompleted {
		t.Fatalf("premise: alice's approval still counts, so bob's completes it (root quorum 2 of 2): %+v %v", got, err)
	}
}
