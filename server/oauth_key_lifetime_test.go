package server

import (
	"crypto/ecdh"
	"crypto/rand"
	"encoding/hex"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// An oauth login's API key is made when the activity is approved, and its
// lifetime runs from then, as the key's own record says: 'vigil login oauth
// --recover' takes the expiry from that record, so the record must be what
// the service enforces, however long after submission the approval came.
func TestOAuthKeyLifetimeRunsFromApprovalAsItsRecordSays(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	target, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	th := hex.EncodeToString(target.PublicKey().Bytes())
	act, err := e.clients["alice"].OAuth(ctx, api.OauthParams{OidcToken: e.mintToken("alice-sub", th), TargetPublicKey: th, ExpirationSeconds: "60"})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("want a login waiting for approval: %v %+v", err, act)
	}
	e.skew.Store(int64(2 * time.Minute)) // approved two minutes later: past createdAt + 60s
	done, err := e.clients["bob"].ApproveActivity(ctx, act.Fingerprint)
	if err != nil || done.Status != api.StatusCompleted {
		t.Fatalf("approve: %v %+v", err, done)
	}
	priv, err := keys.DecryptCredentialBundle(done.Result.OauthResult.CredentialBundle, target)
	if err != nil {
		t.Fatal(err)
	}
	k, err := keys.ParsePrivateHex(keys.SchemeP256, hex.EncodeToString(priv))
	if err != nil {
		t.Fatal(err)
	}
	made, err := api.NewClient(e.http.URL, e.org.ID, k)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := made.Whoami(ctx); err != nil {
		t.Fatalf("the key is refused once its lifetime from submission has passed, though it was made on approval: %v", err)
	}
	record, err := e.clients["alice"].GetAPIKey(ctx, done.Result.OauthResult.APIKeyID)
	if err != nil {
		t.Fatal(err)
	}
	if record.ExpirationSeconds != "60" || !record.CreatedAt.Time().After(act.CreatedAt.Time().Add(time.Minute)) {
		t.Fatalf("the key's record (created %s, lives %ss) does not count from the approval (submitted %s)",
			record.CreatedAt.Time(), record.ExpirationSeconds, act.CreatedAt.Time())
	}
	e.skew.Store(int64(2*time.Minute + 61*time.Second)) // past the record's expiry
	if _, err := made.Whoami(ctx); err == nil {
		t.Errorf("the key is accepted after the expiry its record gives (%s)", record.CreatedAt.Time().Add(time.Minute))
	}
}
