package server

import (
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A vote stored before votes recorded their credential is judged by looking
// its public key up among the voter's API keys (lookUpVoteMethod). Public
// keys are unique per organization only while registered, and registering
// one takes no private key: once the voter's key is gone, another user who
// registers the same public key must not lend the old vote their key.
// docs/local-service.md: "if that key is gone, it satisfies no step".
func TestMfaStatusOfALegacyVoteIgnoresAnotherUsersKey(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	alice, bob := e.clients["alice"], e.later("bob")
	pol, err := alice.CreateMfaPolicy(ctx, api.CreateMfaPolicyParams{UserID: e.user("carol"), MfaPolicyName: "API key for tags",
		Condition:                     "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'",
		RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthAPIKey}}}}})
	if err != nil {
		t.Fatal(err)
	}
	mustComplete(t)(bob.ApproveActivity(ctx, pol.Fingerprint))
	act, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "t", UserIDs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.clients["carol"].ApproveActivity(ctx, act.Fingerprint); err != nil {
		t.Fatal(err)
	}
	carolKey := e.apiKeyID(e.user("carol"))
	// carol's vote as stored before migration 11 whose key was gone then:
	// no credential recorded; and her key is gone.
	if _, err := e.srv.db.write.ExecContext(ctx, `UPDATE votes SET credential_id = '', credential_type = '', passkey_credential_id = '' WHERE activity_id = ? AND user_id = ?`, act.ID, e.user("carol")); err != nil {
		t.Fatal(err)
	}
	// While her key is there, the lookup finds it.
	if st, err := alice.GetMfaStatus(ctx, act.ID, e.user("carol")); err != nil || len(st) != 1 || !st[0].Satisfied {
		t.Fatalf("carol's legacy vote, her key still registered: %+v %v, want her policy satisfied", st, err)
	}
	if _, err := e.srv.db.write.ExecContext(ctx, `DELETE FROM api_keys WHERE id = ?`, carolKey); err != nil {
		t.Fatal(err)
	}
	// Another user now registers that public key (registering a public key
	// needs no private key).
	mallory, err := e.srv.CreateUser(ctx, e.org.ID, UserSpec{Name: "mallory",
		APIKeys: []APIKeySpec{{Name: "same public key", PublicKey: e.keys["carol"].PublicKeyHex()}}})
	if err != nil {
		t.Fatal(err)
	}
	st, err := alice.GetMfaStatus(ctx, act.ID, e.user("carol"))
	if err != nil || len(st) != 1 {
		t.Fatalf("GetMfaStatus = %+v, %v", st, err)
	}
	if st[0].Satisfied {
		t.Errorf("carol's legacy vote, whose key is gone, satisfies her MFA policy with user %s's key: %+v", mallory, st[0].SatisfiedMethods)
	}
}
