package server

import (
	"testing"

	"github.com/vigil-console/vigil/api"
)

// TestDocumentedLanguagePolicies stores policies in the documented language
// the service's own activities never exercise fully (transactions, slices,
// kinds) and checks how they decide a user tag creation.
func TestDocumentedLanguagePolicies(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	// Reads a transaction no activity here has: it must never allow, even
	// with a clause that is true on its own.
	noTx := e.addPolicy("eth allowlist", api.EffectAllow,
		"eth.tx.to == '0x08d2b0a37F869FF76BACB5Bab3278E26ab7067B7' || activity.kind == 'CREATE_USER_TAG'", "")
	sliced := e.addPolicy("ops tags", api.EffectAllow,
		"activity.kind == 'CREATE_USER_TAG' && activity.params.user_tag_name[0..4] == 'ops-'", "approvers.count() >= 1")

	act, err := e.clients["alice"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "dev-team", UserIDs: []string{e.user("bob")}})
	if err != nil {
		t.Fatal(err)
	}
	if act.Status != api.StatusConsensusNeeded {
		t.Fatalf("dev-team tag: status %s, want CONSENSUS_NEEDED (no policy allows it)", act.Status)
	}
	evals, err := e.clients["alice"].GetPolicyEvaluations(ctx, act.ID)
	if err != nil || len(evals) == 0 {
		t.Fatalf("evaluations: %v %+v", err, evals)
	}
	got := map[string]string{}
	for _, p := range evals[0].PolicyEvaluations {
		got[p.PolicyID] = p.Outcome
	}
	if got[noTx] != api.OutcomeDenyImplicit || got[sliced] != api.OutcomeDenyImplicit {
		t.Fatalf("outcomes %v, want both DENY_IMPLICIT", got)
	}

	act, err = e.clients["alice"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "ops-oncall", UserIDs: []string{e.user("bob")}})
	if err != nil || act.Status != api.StatusCompleted {
		t.Fatalf("ops-oncall tag: %v, status %s, want COMPLETED by policy %s", err, act.Status, sliced)
	}
}
