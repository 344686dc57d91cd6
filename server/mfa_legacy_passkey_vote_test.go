package server

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// A vote records its passkey's key as the authenticator stored it, and
// before migration 19 that could be the uncompressed form, in any case;
// migration 19 stores every passkey key compressed. A vote stored before
// votes recorded their credential (migration 11) is judged by looking its key
// up among the voter's passkeys (lookUpVoteMethod): it must still find its
// passkey, so an MFA step that names that passkey stays met.
func TestMfaStatusOfALegacyPasskeyVoteAfterKeysWereCompressed(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	alice, bob := e.clients["alice"], e.clients["bob"]
	auth, err := keys.NewSoftAuthenticator("bGVnYWN5LXBhc3NrZXk")
	if err != nil {
		t.Fatal(err)
	}
	pat, err := e.srv.CreateUser(ctx, e.org.ID, UserSpec{Name: "pat",
		Authenticators: []AuthenticatorSpec{{Name: "yubikey", CredentialID: auth.CredentialID(), PublicKey: auth.PublicKeyHex()}}})
	if err != nil {
		t.Fatal(err)
	}
	var passkeyID string
	if err := e.srv.db.read.QueryRowContext(ctx, `SELECT id FROM authenticators WHERE user_id = ?`, pat).Scan(&passkeyID); err != nil {
		t.Fatal(err)
	}
	pol, err := alice.CreateMfaPolicy(ctx, api.CreateMfaPolicyParams{UserID: pat, MfaPolicyName: "that passkey", Condition: "true",
		RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthPasskey, ID: passkeyID}}}}})
	if err != nil {
		t.Fatal(err)
	}
	mustComplete(t)(bob.ApproveActivity(ctx, pol.Fingerprint))
	act, err := e.client(auth).CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "t", UserIDs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	// pat's vote as stored before migration 11 by a vigil that kept the key
	// as registered (uncompressed, upper case): no credential recorded.
	old := strings.ToUpper(uncompressedP256(t, auth.PublicKeyHex()))
	if _, err := e.srv.db.write.ExecContext(ctx, `UPDATE votes SET public_key = ?, credential_id = '', credential_type = '', passkey_credential_id = ''
		WHERE activity_id = ? AND user_id = ?`, old, act.ID, pat); err != nil {
		t.Fatal(err)
	}
	st, err := alice.GetMfaStatus(ctx, act.ID, pat)
	if err != nil || len(st) != 1 {
		t.Fatalf("GetMfaStatus = %+v, %v", st, err)
	}
	if !st[0].Satisfied || len(st[0].SatisfiedMethods) != 1 || st[0].SatisfiedMethods[0].ID != passkeyID {
		t.Errorf("pat's legacy vote, cast with passkey %s (its key then stored uncompressed): %+v, want the step naming that passkey met", passkeyID, st[0])
	}
}
