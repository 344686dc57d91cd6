package server

import (
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A vote stored before votes recorded their credential is matched to the
// voter's API key by its public key (lookUpVoteMethod). When the voter
// holds the same bytes on both curves, as two keys, the vote's credential
// is the key of the curve it was signed with, not whichever row comes
// first.
func TestLegacyVoteIsTheKeyOfItsCurve(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	alice, bob := e.clients["alice"], e.later("bob")
	dual := p256KeyOnBothCurves(t)
	// carol's keys of both curves with these bytes, the secp256k1 one first.
	carol := e.user("carol")
	if _, err := e.srv.db.write.ExecContext(ctx, `INSERT INTO api_keys(id, org_id, user_id, name, public_key, credential_type, created_ns, updated_ns) VALUES
		('k-secp', ?, ?, 'secp', ?, ?, 1, 1), ('k-p256', ?, ?, 'p256', ?, ?, 2, 2)`,
		e.org.ID, carol, dual.PublicKeyHex(), api.CredentialAPIKeySecp256k1, e.org.ID, carol, dual.PublicKeyHex(), api.CredentialAPIKeyP256); err != nil {
		t.Fatal(err)
	}
	pol, err := alice.CreateMfaPolicy(ctx, api.CreateMfaPolicyParams{UserID: carol, MfaPolicyName: "API key for tags",
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
	if _, err := e.client(dual).ApproveActivity(ctx, act.Fingerprint); err != nil {
		t.Fatalf("carol approves with her P-256 key: %v", err)
	}
	// As stored before migration 11: no credential recorded.
	if _, err := e.srv.db.write.ExecContext(ctx, `UPDATE votes SET credential_id = '', credential_type = '', passkey_credential_id = '' WHERE activity_id = ? AND user_id = ?`, act.ID, carol); err != nil {
		t.Fatal(err)
	}
	st, err := alice.GetMfaStatus(ctx, act.ID, carol)
	if err != nil || len(st) != 1 || !st[0].Satisfied || len(st[0].SatisfiedMethods) != 1 {
		t.Fatalf("carol's legacy vote: %+v, %v; want her policy satisfied by one method", st, err)
	}
	if got := st[0].SatisfiedMethods[0].ID; got != "k-p256" {
		t.Errorf("carol's legacy vote, signed with her P-256 key k-p256, is credited to %s", got)
	}
}
