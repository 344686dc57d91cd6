package server

import (
	"encoding/hex"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// carolsOAuthKey signs carol in with an oauth activity she stamps with her
// API key (threshold 1: it completes at once) and returns the OAuth key.
func carolsOAuthKey(t *testing.T, e *testEnv) *keys.Key {
	t.Helper()
	target, targetHex := newTarget(t)
	act, err := e.clients["carol"].OAuth(ctxT(t), api.OauthParams{OidcToken: e.mintToken("carol-sub", targetHex), TargetPublicKey: targetHex})
	if err != nil || act.Status != api.StatusCompleted {
		t.Fatalf("carol's first sign-in: %v %+v", err, act)
	}
	priv, err := keys.DecryptCredentialBundle(act.Result.OauthResult.CredentialBundle, target)
	if err != nil {
		t.Fatal(err)
	}
	k, err := keys.ParsePrivateHex(keys.SchemeP256, hex.EncodeToString(priv))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// carolSignsInAgain is the body of carol's oauth with invalidateExisting,
// which deletes every OAuth key of hers but the one it makes.
func carolSignsInAgain(t *testing.T, e *testEnv) []byte {
	t.Helper()
	_, targetHex := newTarget(t)
	yes := true
	return e.body(api.TypeOauth, api.OauthParams{OidcToken: e.mintToken("carol-sub", targetHex), TargetPublicKey: targetHex, InvalidateExisting: &yes}, nil)
}

// An oauth with invalidateExisting stamped by one of the user's own OAuth
// keys deletes that key. Its reply lost, the resend of the same bytes gets
// the recorded activity, with the new key's credential bundle (the client's
// only way to the key that replaced its own), whether it arrives after the
// first attempt or waited for the writer behind it; nothing more is recorded.
func TestResendOfAnOauthThatInvalidatedItsOwnKeyGetsTheRecordedActivity(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 1})
	ctx := ctxT(t)
	oauthKey := carolsOAuthKey(t, e)
	body := carolSignsInAgain(t, e)
	queued := admitted(t, e, oauthKey, "oauth", body)
	first := e.post(e.submitPath("oauth"), body, oauthKey)
	if first.status != 200 || first.act.Status != api.StatusCompleted || first.act.Result.OauthResult == nil {
		t.Fatalf("first attempt: HTTP %d %s", first.status, first.body)
	}
	if left := e.oauthKeysOf(e.user("carol")); len(left) != 1 || left[0] != first.act.Result.OauthResult.APIKeyID {
		t.Fatalf("carol's OAuth keys after the sign-in: %v; want only the new one", left)
	}
	before := countActivities(t, e, e.org.ID)

	again := e.post(e.submitPath("oauth"), body, oauthKey)
	if again.status != 200 || again.act.ID != first.act.ID || again.act.Result.OauthResult == nil ||
		again.act.Result.OauthResult.CredentialBundle != first.act.Result.OauthResult.CredentialBundle {
		t.Fatalf("resend of the identical body: HTTP %d %s; want activity %s with its credential bundle", again.status, again.body, first.act.ID)
	}
	queuedAgain, err := e.srv.runSubmit(ctx, queued)
	if err != nil || queuedAgain.ID != first.act.ID || queuedAgain.Result.OauthResult == nil ||
		queuedAgain.Result.OauthResult.CredentialBundle != first.act.Result.OauthResult.CredentialBundle {
		t.Fatalf("queued resend: %v, activity %q; want activity %s with its credential bundle", err, queuedAgain.ID, first.act.ID)
	}
	if n := countActivities(t, e, e.org.ID); n != before {
		t.Errorf("%d activities after the resends, %d before", n, before)
	}
}

// An OAuth key deleted by another request (a leaked key the quorum revoked)
// while its oauth with invalidateExisting waited for approval gets nothing
// back for that oauth, though it completed later: it did not delete the key,
// and the key must learn nothing decided after its revocation, least of all
// a new credential.
func TestResendOfAnOauthWhoseKeyWasRevokedBeforeItCompletedIsRefused(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	oauthKey := e.oauthKeyOf("carol")
	body := carolSignsInAgain(t, e)
	first := e.post(e.submitPath("oauth"), body, oauthKey)
	if first.status != 200 || first.act.Status != api.StatusConsensusNeeded {
		t.Fatalf("first attempt: HTTP %d %s; want it waiting for a second approval", first.status, first.body)
	}
	keyIDs := e.oauthKeysOf(e.user("carol"))
	if len(keyIDs) != 1 {
		t.Fatalf("carol has OAuth keys %v, want 1", keyIDs)
	}
	del, err := e.clients["alice"].DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: e.user("carol"), APIKeyIDs: keyIDs})
	if err != nil {
		t.Fatal(err)
	}
	mustComplete(t)(e.clients["bob"].ApproveActivity(ctx, del.Fingerprint))
	mustComplete(t)(e.clients["bob"].ApproveActivity(ctx, first.act.Fingerprint))

	wantError(t, e.post(e.submitPath("oauth"), body, oauthKey), 401, api.CodeUnauthenticated, "UNKNOWN_KEY")
}
