package screens

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// strandedDeletionThenSecondKey has root member carol submit the deletion of
// her only API key (the own-credentials permission does not apply: it would
// strand her, so the service leaves it waiting for the root quorum), then
// sign in with oauth (a demo policy allows it), so that she now holds a
// second key. It returns the deletion, read after that.
func strandedDeletionThenSecondKey(t *testing.T, demo *servertest.Demo) *api.Activity {
	t.Helper()
	ctx := context.Background()
	carol := demo.Client("carol")
	users, err := carol.ListUsers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var carolID, keyID string
	for _, u := range users {
		if u.UserName == "carol" && len(u.APIKeys) == 1 {
			carolID, keyID = u.UserID, u.APIKeys[0].APIKeyID
		}
	}
	if carolID == "" {
		t.Fatal("the demo has no carol with a single API key")
	}
	act, err := carol.DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: carolID, APIKeyIDs: []string{keyID}})
	if err != nil {
		t.Fatal(err)
	}
	if act.Status != api.StatusConsensusNeeded {
		t.Fatalf("the deletion of carol's only key should wait for the root quorum, got %s", act.Status)
	}
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	target := hex.EncodeToString(k.PublicKey().Bytes())
	token, err := demo.Server.MintDemoOIDCToken(demo.Info.OrganizationID, "carol", api.OauthNonce(target))
	if err != nil {
		t.Fatal(err)
	}
	if o, err := carol.OAuth(ctx, api.OauthParams{OidcToken: token, TargetPublicKey: target}); err != nil || o.Status != api.StatusCompleted {
		t.Fatalf("carol's oauth sign-in: %v %+v", err, o)
	}
	a, err := carol.GetActivity(ctx, act.ID)
	if err != nil {
		t.Fatal(err)
	}
	if a.Status != api.StatusConsensusNeeded {
		t.Fatalf("the deletion should still wait, it is %s", a.Status)
	}
	return a
}

// The overall outcome rests on today's keys, not only on the policies: once
// carol holds a second key, her deletion decided again is allowed by the
// own-credentials permission, while the service left it waiting. The
// Evaluations view must say it is not reproducible, and why, never that it
// was allowed.
func TestEvaluationWhoseOverallOutcomeChangedIsNotReproducible(t *testing.T) {
	demo := servertest.StartDemo(t)
	carol := demo.Client("carol")
	a := strandedDeletionThenSecondKey(t, demo)
	evs, err := carol.GetPolicyEvaluations(context.Background(), a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 1 {
		t.Fatalf("want the submission's evaluation alone, got %d", len(evs))
	}
	_, ec := demoEvaluations(t, carol)
	ex := explainEvaluation(ec, *a, evs[0])
	if !ex.Differs || ex.Outcome == api.OutcomeAllow {
		t.Fatalf("the service left the deletion waiting, but the console explains it as %q (differs %v): %q", ex.Outcome, ex.Differs, ex.Why)
	}
	for _, want := range []string{"not reproducible", api.OutcomeAllow, "still waits", "keys or features changed since"} {
		if !strings.Contains(ex.Why, want) {
			t.Errorf("the why does not say %q: %q", want, ex.Why)
		}
	}
	for _, l := range ex.Policies {
		if l.Shown != api.OutcomeDenyImplicit {
			t.Errorf("policy %s should show as the service stored it (%s), shows %q", l.ID, api.OutcomeDenyImplicit, l.Shown)
		}
	}
}
