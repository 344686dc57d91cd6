package server

import (
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A stored deny policy this vigil cannot compile (stored by a newer vigil,
// then the binary rolled back) must not be dropped: what it might deny does
// not complete.
func TestUncompilableStoredDenyPolicyFailsClosed(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	e.addPolicy("allow sessions", api.EffectAllow, "activity.type == 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION'", "")
	deny := e.addPolicy("deny operator sessions", api.EffectDeny, "activity.type == 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION'",
		"approvers.any(user, user.id == '"+e.user("operator")+"')")
	act, err := e.clients["operator"].CreateReadOnlySession(ctx)
	if err != nil || act.Status != api.StatusFailed {
		t.Fatalf("denied session: %v %+v", err, act)
	}
	// The stored deny now reads in a dialect this binary does not know.
	if err := e.srv.db.inTx(ctx, func(tx *txn) error {
		_, err := tx.ExecContext(ctx, `UPDATE policies SET consensus = ? WHERE id = ?`,
			"approvers.any(user, user.id == '"+e.user("operator")+"') && newerFunction()", deny)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	act, err = e.later("operator").CreateReadOnlySession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if act.Status == api.StatusCompleted {
		t.Fatalf("with the deny policy %s unreadable, operator's session COMPLETED (session %q): the deny was dropped, not failed closed",
			deny, act.Result.CreateReadOnlySessionResult.Session)
	}
	evals, err := e.clients["operator"].GetPolicyEvaluations(ctx, act.ID)
	if err != nil {
		t.Fatal(err)
	}
	var outcome string
	for _, o := range evals[len(evals)-1].PolicyEvaluations {
		if o.PolicyID == deny {
			outcome = o.Outcome
		}
	}
	if outcome != api.OutcomeError {
		t.Fatalf("the unreadable deny %s has outcome %q in the evaluation, want %s: %+v", deny, outcome, api.OutcomeError, evals)
	}
	t.Logf("status %s, failure %+v", act.Status, act.Failure)
}
