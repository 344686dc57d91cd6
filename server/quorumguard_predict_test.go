package server

import (
	"context"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/policy"
)

// The console and `vigil policy simulate` predict the own-credentials
// permission with the service's rule: once the origins are set, a root
// member deleting their last API key is left with no credential the service
// counts (their passkey does not), so the root quorum decides, not the
// permission. The prediction must not say ALLOW for what the service keeps
// waiting.
func TestPredictionCountsNoPasskeyWhileOriginsAreSet(t *testing.T) {
	e := newEnv(t)
	dave, daveKey, _ := addRootDave(context.Background(), t, e)
	setOrigins(t, e, keys.SoftAuthenticatorOrigin) // dave's passkey still authenticates
	ctx := ctxT(t)
	act, err := e.client(daveKey).DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: dave, APIKeyIDs: []string{e.apiKeyID(dave)}})
	if err != nil {
		t.Fatal(err)
	}
	if act.Status != api.StatusConsensusNeeded {
		t.Fatalf("dave deleting his only API key with the origins set: %s %+v; the service should leave it to the root quorum", act.Status, act.Failure)
	}
	users, err := e.clients["alice"].ListUsers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := e.clients["alice"].GetOrganizationConfigs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	in := policy.InputOfActivity(*act, policy.Members(users, *cfg), time.Time{})
	if !in.StrandsRootMember {
		t.Error("the prediction's input does not see dave stranded: it counted his passkey, which the service does not while the origins are set")
	}
	if d := policy.Decide(nil, in, policy.QuorumOf(cfg.Quorum), policy.RootOnly(act.Type)); d.Outcome != api.OutcomeRequiresConsensus || d.OwnCredential {
		t.Errorf("predicted %s (%s) for a deletion the service keeps %s", d.Outcome, d.Reason, act.Status)
	}
	if sim := simulateAsClients(t, e.clients["alice"], act); sim.Today.Outcome != api.OutcomeRequiresConsensus {
		t.Errorf("policy simulate says today %s (%s); the service keeps it %s", sim.Today.Outcome, sim.Today.Reason, act.Status)
	}
	// The deletion warning reads the same rule.
	if loss := api.KeyDeletionLoss(users, cfg.Quorum, time.Now(), dave, []string{e.apiKeyID(dave)}, api.PasskeysSign(cfg.Features)); loss.Stranded != dave {
		t.Errorf("KeyDeletionLoss strands %q, want dave", loss.Stranded)
	}
}
