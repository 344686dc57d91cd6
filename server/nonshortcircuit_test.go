package server

import (
	"testing"

	"github.com/vigil-console/vigil/api"
)

// tkhq/docs features/policies/language.mdx (c8289df2), Appendix "Policy
// evaluation": "our policy engine does not short circuit during evaluation
// ... if any clause within the `condition` field of a policy results in an
// error, the evaluated `outcome` for that policy will be an error." The
// policy below errors (api_key_ids[1] of a one-key deletion) although its
// first clause is true, so it allows nothing: dave's deletion of erin's key
// is not completed, the policy's evaluation says OUTCOME_ERROR, and the key
// is still there.
func TestServiceDoesNotAllowOnAnErroringClause(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2, extra: map[string][]string{"dave": nil, "erin": nil}})
	ctx := ctxT(t)
	u, err := e.clients["erin"].GetUser(ctx, e.user("erin"))
	if err != nil || len(u.APIKeys) == 0 {
		t.Fatalf("erin's keys: %v", err)
	}
	pid := e.addPolicy("erin's keys, or the temp key", api.EffectAllow,
		"activity.type == 'ACTIVITY_TYPE_DELETE_API_KEYS' && (activity.params.user_id == '"+e.user("erin")+"' || activity.params.api_key_ids[1] == 'k-temp')", "")
	act, err := e.clients["dave"].DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: e.user("erin"), APIKeyIDs: []string{u.APIKeys[0].APIKeyID}})
	if err != nil {
		t.Fatal(err)
	}
	evals, _ := e.clients["dave"].GetPolicyEvaluations(ctx, act.ID)
	outcome := ""
	if len(evals) > 0 {
		for _, p := range evals[0].PolicyEvaluations {
			if p.PolicyID == pid {
				outcome = p.Outcome
			}
		}
	}
	if act.Status == api.StatusCompleted || outcome != api.OutcomeError {
		t.Errorf("status %s, policy outcome %s; the documented engine gives OUTCOME_ERROR for the policy (a clause errors) and nothing allows the deletion",
			act.Status, outcome)
	}
	after, err := e.clients["erin"].GetUser(ctx, e.user("erin"))
	if err != nil {
		t.Fatalf("erin's keys after: %v", err)
	}
	if len(after.APIKeys) != len(u.APIKeys) {
		t.Errorf("erin has %d keys after a deletion that nothing allows, want %d", len(after.APIKeys), len(u.APIKeys))
	}
}
