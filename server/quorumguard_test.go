package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// deleteKeys submits delete_api_keys of userID's keys with submitter and has
// approver vote for it; it returns the activity as the vote leaves it.
func (e *testEnv) deleteKeys(submitter, approver *api.Client, userID string, keyIDs ...string) *api.Activity {
	e.t.Helper()
	ctx := ctxT(e.t)
	act, err := submitter.DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: userID, APIKeyIDs: keyIDs})
	if err != nil {
		e.t.Fatal(err)
	}
	if act.Status != api.StatusConsensusNeeded {
		return act
	}
	if act, err = approver.ApproveActivity(ctx, act.Fingerprint); err != nil {
		e.t.Fatal(err)
	}
	return act
}

// wantQuorumKept checks that the deletion FAILED as one that would leave the
// root quorum short, naming the member it would strand.
func wantQuorumKept(t *testing.T, act *api.Activity, stranded string) {
	t.Helper()
	if act.Status != api.StatusFailed || act.Failure == nil {
		t.Fatalf("deletion: status %s, want FAILED: it would leave fewer root members able to sign than the threshold", act.Status)
	}
	if act.Failure.Code != api.CodeFailedPrecondition {
		t.Errorf("failure code %d, want %d (failed precondition)", act.Failure.Code, api.CodeFailedPrecondition)
	}
	for _, want := range []string{stranded, "threshold", "keep at least one of these keys"} {
		if !strings.Contains(act.Failure.Message, want) {
			t.Errorf("failure %q does not say %q", act.Failure.Message, want)
		}
	}
}

// The reviewer's lockout: two approved deletions of root members' only keys
// would leave one of three root members able to sign, under the threshold of
// two. The second FAILS, the key stays usable, and the quorum can still act.
func TestDeletingRootKeysCannotLeaveTheQuorumUnableToSign(t *testing.T) {
	e := newEnv(t) // alice, bob, carol: 2-of-3 root quorum; one API key each
	ctx := ctxT(t)
	if act := e.deleteKeys(e.clients["alice"], e.clients["bob"], e.user("alice"), e.apiKeyID(e.user("alice"))); act.Status != api.StatusCompleted {
		t.Fatalf("deleting alice's key (bob and carol still sign): %s %+v", act.Status, act.Failure)
	}
	bobKey := e.apiKeyID(e.user("bob"))
	wantQuorumKept(t, e.deleteKeys(e.clients["bob"], e.clients["carol"], e.user("bob"), bobKey), "bob")

	if got, err := e.clients["bob"].GetAPIKey(ctx, bobKey); err != nil || got.APIKeyID != bobKey {
		t.Fatalf("bob's key after the refused deletion: %v %+v", err, got)
	}
	f, err := e.clients["carol"].SetOrganizationFeature(ctx, api.SetOrganizationFeatureParams{Name: api.FeatureEmailAuth, Value: "on"})
	if err != nil {
		t.Fatal(err)
	}
	if f, err = e.clients["bob"].ApproveActivity(ctx, f.Fingerprint); err != nil || f.Status != api.StatusCompleted {
		t.Fatalf("set_organization_feature by carol and bob after the refused deletion: %v %+v", err, f)
	}
}

// A root member with two keys may delete one, even with the quorum at its
// threshold: the other key still signs.
func TestRootMemberWithTwoKeysMayDeleteOne(t *testing.T) {
	e := newEnv(t)
	if act := e.deleteKeys(e.clients["carol"], e.clients["alice"], e.user("carol"), e.apiKeyID(e.user("carol"))); act.Status != api.StatusCompleted {
		t.Fatalf("deleting carol's key: %s %+v", act.Status, act.Failure)
	}
	oauth := e.client(e.oauthKeyOf("alice")) // alice's second key
	var first string
	if err := e.srv.db.read.QueryRowContext(context.Background(), `SELECT id FROM api_keys WHERE user_id = ? AND credential_type != ?`,
		e.user("alice"), api.CredentialOauthKeyP256).Scan(&first); err != nil {
		t.Fatal(err)
	}
	if act := e.deleteKeys(oauth, e.clients["bob"], e.user("alice"), first); act.Status != api.StatusCompleted {
		t.Fatalf("alice deleting one of her two keys with the quorum at 2 of 2: %s %+v", act.Status, act.Failure)
	}
	if _, err := oauth.Whoami(ctxT(t)); err != nil {
		t.Fatalf("alice's remaining key: %v", err)
	}
}

// An expired key signs nothing, so it does not count: a root member whose
// other key has expired is stranded by deleting the one that still works.
func TestAnExpiredKeyDoesNotKeepTheQuorumAble(t *testing.T) {
	e := newEnv(t)
	if act := e.deleteKeys(e.clients["carol"], e.clients["alice"], e.user("carol"), e.apiKeyID(e.user("carol"))); act.Status != api.StatusCompleted {
		t.Fatalf("deleting carol's key: %s %+v", act.Status, act.Failure)
	}
	oauthKey := e.oauthKeyOf("alice") // lives defaultOauthKeySeconds
	var first string
	if err := e.srv.db.read.QueryRowContext(context.Background(), `SELECT id FROM api_keys WHERE user_id = ? AND credential_type != ?`,
		e.user("alice"), api.CredentialOauthKeyP256).Scan(&first); err != nil {
		t.Fatal(err)
	}
	e.skew.Add(int64(defaultOauthKeySeconds*time.Second + time.Minute))
	at := func(k keys.Stamper) *api.Client {
		c, err := api.NewClient(e.http.URL, e.org.ID, k, api.WithClock(func() time.Time { return time.Now().Add(time.Duration(e.skew.Load())) }))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	if _, err := at(oauthKey).Whoami(ctxT(t)); err == nil {
		t.Fatal("alice's OAuth key still authenticates after its lifetime; the test needs it expired")
	}
	wantQuorumKept(t, e.deleteKeys(at(e.keys["alice"]), at(e.keys["bob"]), e.user("alice"), first), "alice")
}

// A passkey is a credential that signs: a root member who keeps one may
// delete every API key, and the guard still stops the deletion that would
// strand the next member.
func TestRootMemberWithAPasskeyMayDeleteEveryAPIKey(t *testing.T) {
	e := newEnv(t)
	auth, err := keys.NewSoftAuthenticator("ZGF2ZS1wYXNza2V5")
	if err != nil {
		t.Fatal(err)
	}
	daveKey := e.newKey("dave")
	dave, err := e.srv.CreateUser(context.Background(), e.org.ID, UserSpec{Name: "dave", Root: true,
		APIKeys:        []APIKeySpec{{Name: "dave key", PublicKey: daveKey.PublicKeyHex()}},
		Authenticators: []AuthenticatorSpec{{Name: "yubikey", CredentialID: auth.CredentialID(), PublicKey: auth.PublicKeyHex()}}})
	if err != nil {
		t.Fatal(err)
	}
	// 2 of 4: alice, bob, carol, dave. carol's and bob's keys go: alice and dave remain.
	for _, name := range []string{"carol", "bob"} {
		if act := e.deleteKeys(e.clients[name], e.clients["alice"], e.user(name), e.apiKeyID(e.user(name))); act.Status != api.StatusCompleted {
			t.Fatalf("deleting %s's key: %s %+v", name, act.Status, act.Failure)
		}
	}
	if act := e.deleteKeys(e.client(daveKey), e.clients["alice"], dave, e.apiKeyID(dave)); act.Status != api.StatusCompleted {
		t.Fatalf("dave deleting his API key while he keeps a passkey: %s %+v", act.Status, act.Failure)
	}
	wantQuorumKept(t, e.deleteKeys(e.clients["alice"], e.client(auth), e.user("alice"), e.apiKeyID(e.user("alice"))), "alice")
}

// A member outside the root quorum may lose their last key: their
// credentials are no part of the quorum, even when it is at its threshold.
func TestNonRootMembersLastKeyMayBeDeleted(t *testing.T) {
	e := newEnv(t)
	if act := e.deleteKeys(e.clients["carol"], e.clients["alice"], e.user("carol"), e.apiKeyID(e.user("carol"))); act.Status != api.StatusCompleted {
		t.Fatalf("deleting carol's key: %s %+v", act.Status, act.Failure)
	}
	act := e.deleteKeys(e.clients["alice"], e.clients["bob"], e.user("operator"), e.apiKeyID(e.user("operator")))
	if act.Status != api.StatusCompleted {
		t.Fatalf("deleting the operator's only key: %s %+v", act.Status, act.Failure)
	}
}
