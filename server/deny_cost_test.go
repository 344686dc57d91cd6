package server

import (
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// A submitted DENY matching a literal pattern, and an ALLOW on the same type:
// a member pads the matched parameter so that the deny's matches() is
// charged past the cost limit. The deny must not turn into an error that
// neither allows nor denies, letting the allow complete the activity: its
// match is a substring scan, charged as one (so the deny fires), and a deny
// that does run out of its cost limit holds the activity for the root quorum.
func TestLiteralMatchesDenyIsNotBypassedByALongParameter(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2})
	ctx := ctxWithin(t, 5*time.Minute)
	const isSci = "activity.type == 'ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE'"
	e.addPolicy("deny selfdestruct", api.EffectDeny, isSci+" && activity.params.smart_contract_interface.matches('selfdestruct')", "")
	e.addPolicy("allow interfaces", api.EffectAllow, isSci, "")
	long := `"` + strings.Repeat(" ", 50_000) + `selfdestruct"`
	act, err := e.clients["operator"].CreateSmartContractInterface(ctx, api.CreateSmartContractInterfaceParams{
		SmartContractAddress: "0xabc", SmartContractInterface: long, Type: api.SmartContractInterfaceEthereum, Label: "long"})
	if err != nil {
		t.Fatal(err)
	}
	if act.Status == api.StatusCompleted {
		t.Errorf("an interface holding selfdestruct after 50,000 spaces was created (%s): the deny was bypassed by padding, evaluation %+v",
			act.Status, lastEvaluation(t, e, act.ID))
	}
}

// A DENY whose work grows with a parameter (each of eight words looked for
// in the interface), and an ALLOW on the same type: a 390 KB interface runs
// the deny out of its cost limit. It is recorded OUTCOME_ERROR, but it is
// not ignored: the activity waits for the root quorum instead of being
// allowed, and the root quorum can still complete it.
func TestDenyOverItsCostLimitHoldsTheActivity(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2})
	ctx := ctxWithin(t, 5*time.Minute)
	const isSci = "activity.type == 'ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE'"
	deny := e.addPolicy("deny dangerous opcodes", api.EffectDeny, isSci+
		" && ['selfdestruct', 'suicide', 'delegatecall', 'callcode', 'create2', 'extcodecopy', 'sstore', 'coinbase']"+
		".exists(w, activity.params.smart_contract_interface.contains(w))", "")
	allow := e.addPolicy("allow interfaces", api.EffectAllow, isSci, "")
	long := `"` + strings.Repeat(" ", 390_000) + `selfdestruct"`
	act, err := e.clients["operator"].CreateSmartContractInterface(ctx, api.CreateSmartContractInterfaceParams{
		SmartContractAddress: "0xabc", SmartContractInterface: long, Type: api.SmartContractInterfaceEthereum, Label: "long"})
	if err != nil {
		t.Fatal(err)
	}
	outcomes := lastOutcomes(t, e, act.ID)
	if outcomes[deny] != api.OutcomeError {
		t.Fatalf("the deny is %s, want OUTCOME_ERROR (its cost limit passed): the test needs a deny that runs out of it", outcomes[deny])
	}
	if outcomes[allow] != api.OutcomeAllow {
		t.Errorf("the allow is %s, want OUTCOME_ALLOW", outcomes[allow])
	}
	if act.Status != api.StatusConsensusNeeded {
		t.Fatalf("the activity is %s, want CONSENSUS_NEEDED: a deny that ran out of its cost limit could still deny, "+
			"so the allow must not complete it", act.Status)
	}
	if _, err := e.clients["alice"].ApproveActivity(ctx, act.Fingerprint); err != nil {
		t.Fatal(err)
	}
	done, err := e.clients["bob"].ApproveActivity(ctx, act.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	if done.Status != api.StatusCompleted {
		t.Errorf("approved by the root quorum, the activity is %s, want COMPLETED", done.Status)
	}
}
