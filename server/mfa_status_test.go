package server

import (
	"testing"

	"github.com/vigil-console/vigil/api"
)

// get_mfa_status judges a vote by the credential the service recorded with
// it, so removing that key afterwards (delete_api_keys, or a later OAuth
// sign-in with invalidateExisting) changes neither way the verdict of a vote
// already cast: an OAuth vote still meets an OAUTH step, and still does not
// meet an API_KEY step.
func TestMfaStatusOfAVoteOutlivesItsKey(t *testing.T) {
	removals := map[string]func(t *testing.T, e *testEnv, keyID string){
		"delete_api_keys": func(t *testing.T, e *testEnv, keyID string) {
			ctx := ctxT(t)
			del, err := e.clients["alice"].DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: e.user("carol"), APIKeyIDs: []string{keyID}})
			if err != nil {
				t.Fatal(err)
			}
			if done, err := e.clients["bob"].ApproveActivity(ctx, del.Fingerprint); err != nil || done.Status != api.StatusCompleted {
				t.Fatalf("delete_api_keys: %v %+v", err, done)
			}
		},
		"oauth with invalidateExisting": func(t *testing.T, e *testEnv, keyID string) {
			ctx := ctxT(t)
			_, targetHex := newTarget(t)
			yes := true
			act, err := e.clients["alice"].OAuth(ctx, api.OauthParams{OidcToken: e.mintToken("carol-sub", targetHex), TargetPublicKey: targetHex, InvalidateExisting: &yes})
			if err != nil {
				t.Fatal(err)
			}
			if done, err := e.clients["bob"].ApproveActivity(ctx, act.Fingerprint); err != nil || done.Status != api.StatusCompleted {
				t.Fatalf("second sign-in: %v %+v", err, done)
			}
		},
	}
	for removal, remove := range removals {
		for _, step := range []string{api.AuthOauth, api.AuthAPIKey} {
			t.Run(removal+"/"+step, func(t *testing.T) {
				e := newEnv(t)
				ctx := ctxT(t)
				alice, bob := e.clients["alice"], e.clients["bob"]
				oauthKey := e.oauthKeyOf("carol")
				var keyID string
				if err := e.srv.db.read.QueryRowContext(ctx, `SELECT id FROM api_keys WHERE public_key = ?`, oauthKey.PublicKeyHex()).Scan(&keyID); err != nil {
					t.Fatal(err)
				}
				pol, err := alice.CreateMfaPolicy(ctx, api.CreateMfaPolicyParams{UserID: e.user("carol"), MfaPolicyName: step + " for tags",
					Condition:                     "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'",
					RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: step}}}}})
				if err != nil {
					t.Fatal(err)
				}
				if done, err := bob.ApproveActivity(ctx, pol.Fingerprint); err != nil || done.Status != api.StatusCompleted {
					t.Fatalf("MFA policy: %v %+v", err, done)
				}
				act, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "t", UserIDs: []string{}})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := e.client(oauthKey).ApproveActivity(ctx, act.Fingerprint); err != nil {
					t.Fatal(err)
				}
				status := func() api.MfaStatus {
					t.Helper()
					st, err := alice.GetMfaStatus(ctx, act.ID, e.user("carol"))
					if err != nil || len(st) != 1 {
						t.Fatalf("GetMfaStatus = %+v, %v", st, err)
					}
					return st[0]
				}
				wantSatisfied := step == api.AuthOauth
				before := status()
				if before.Satisfied != wantSatisfied {
					t.Fatalf("before the key's removal: %+v, want satisfied %v (carol voted with her OAuth key)", before, wantSatisfied)
				}
				remove(t, e, keyID)
				after := status()
				if after.Satisfied != wantSatisfied {
					t.Errorf("after the key's removal the vote reads %+v; carol voted with OAuth key %s, satisfied should stay %v", after, keyID, wantSatisfied)
				}
				if wantSatisfied && (len(after.SatisfiedMethods) != 1 || after.SatisfiedMethods[0] != (api.AuthenticationMethod{Type: api.AuthOauth, ID: keyID})) {
					t.Errorf("after the key's removal the vote is satisfied by %+v; want OAUTH %s", after.SatisfiedMethods, keyID)
				}
			})
		}
	}
}

// A vote carries one credential, and SPEC.md says each step of an MFA policy
// must be satisfied in sequence: one API-key vote satisfies the first of two
// steps that both accept an API key, never both (one factor is not two).
func TestMfaStatusCountsOneCredentialForOneStep(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	alice, bob, carol := e.clients["alice"], e.later("bob"), e.clients["carol"]
	pol, err := alice.CreateMfaPolicy(ctx, api.CreateMfaPolicyParams{UserID: e.user("carol"), MfaPolicyName: "two factors",
		Condition: "true",
		RequiredAuthenticationMethods: []api.AuthenticationStep{
			{Any: []api.AuthenticationMethod{{Type: api.AuthPasskey}, {Type: api.AuthAPIKey}}},
			{Any: []api.AuthenticationMethod{{Type: api.AuthEmailOTP}, {Type: api.AuthAPIKey}}},
		}})
	if err != nil {
		t.Fatal(err)
	}
	if done, err := bob.ApproveActivity(ctx, pol.Fingerprint); err != nil || done.Status != api.StatusCompleted {
		t.Fatalf("MFA policy: %v %+v", err, done)
	}
	act, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "t", UserIDs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := carol.ApproveActivity(ctx, act.Fingerprint); err != nil {
		t.Fatal(err)
	}
	st, err := alice.GetMfaStatus(ctx, act.ID, e.user("carol"))
	if err != nil || len(st) != 1 {
		t.Fatalf("GetMfaStatus = %+v, %v", st, err)
	}
	if st[0].Satisfied {
		t.Errorf("one vote with one API key satisfies a policy of two steps: %+v", st[0])
	}
	carolKey := api.AuthenticationMethod{Type: api.AuthAPIKey, ID: e.apiKeyID(e.user("carol"))}
	if len(st[0].SatisfiedMethods) != 1 || st[0].SatisfiedMethods[0] != carolKey {
		t.Errorf("satisfied methods %+v; want carol's API key once, for step 1", st[0].SatisfiedMethods)
	}
}
