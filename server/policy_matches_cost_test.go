package server

import (
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// A stored deny whose matches() pattern is a parameter (submissions refuse
// one now; an earlier vigil stored it), and an activity with a long such
// parameter: the match would run for seconds in the single writer, past
// every cost limit, charged only once done. It is stopped before it runs:
// the deny is an evaluation error (cost limit), and the decision, well
// within its work budget, goes on to judge the allow; the deny, not judged,
// holds the activity for the root quorum.
func TestStoredMatchesOnLongParameterIsStoppedBeforeItRuns(t *testing.T) {
	logs := &logBuffer{}
	e := newEnvWith(t, envOptions{threshold: 2, log: logs})
	ctx := ctxWithin(t, 5*time.Minute)
	const isSci = "activity.type == 'ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE'"
	deny := e.addPolicy("deny odd interfaces", api.EffectDeny, isSci+" && activity.params.smart_contract_interface == 'odd'", "")
	allow := e.addPolicy("allow interfaces", api.EffectAllow, isSci, "")
	hostile := isSci + " && activity.params.smart_contract_interface.matches(activity.params.smart_contract_interface)"
	if _, err := policy.CompileSource(policy.Source{Condition: hostile}); err == nil {
		t.Fatalf("%q is accepted from a submission; the test needs a condition only a stored policy can have", hostile)
	}
	// Written as an earlier vigil stored it.
	if err := e.srv.db.inTx(ctx, func(tx *txn) error {
		_, err := tx.ExecContext(ctx, `UPDATE policies SET condition = ? WHERE id = ?`, hostile, deny)
		return err
	}); err != nil {
		t.Fatal(err)
	}

	// A valid JSON string of 20,000 bytes, the pattern of itself.
	long := `"` + strings.Repeat("ab", 10_000) + `"`
	act, err := e.clients["operator"].CreateSmartContractInterface(ctx, api.CreateSmartContractInterfaceParams{
		SmartContractAddress: "0xabc", SmartContractInterface: long, Type: api.SmartContractInterfaceEthereum, Label: "long"})
	if err != nil {
		t.Fatal(err)
	}
	outcomes := lastOutcomes(t, e, act.ID)
	if outcomes[deny] != api.OutcomeError {
		t.Errorf("the stored deny is %s, want OUTCOME_ERROR (stopped at the cost limit)", outcomes[deny])
	}
	if outcomes[allow] != api.OutcomeAllow {
		t.Errorf("the allow is %s, want OUTCOME_ALLOW: judged, the deny's match having cost no more than the cost limit", outcomes[allow])
	}
	if log := logs.String(); strings.Contains(log, "work budget") {
		t.Errorf("the decision ran out of its work budget: the match was charged after it ran\n%s", log)
	}
	if act.Status != api.StatusConsensusNeeded {
		t.Errorf("the activity is %s, want CONSENSUS_NEEDED: a deny stopped at its cost limit could still deny, so it waits for the root quorum", act.Status)
	}
}
