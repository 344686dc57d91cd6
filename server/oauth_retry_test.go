package server

import (
	"net/http"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// A completed sign-in whose reply was lost is fetched by resending the same
// bytes within the stamp's window, even when the OIDC token has expired
// meanwhile: submit is idempotent, and the reply carries the credential
// bundle the first one did.
func TestOauthRetryAfterTokenExpiredReturnsTheSignIn(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 1})
	// A token issued 9m40s ago: it expires in 20 s.
	e.skew.Store(int64(-(10*time.Minute - 20*time.Second)))
	_, ta := newTarget(t)
	tok := e.mintToken("alice-sub", ta)
	e.skew.Store(0)

	body := e.body(api.TypeOauth, api.OauthParams{OidcToken: tok, TargetPublicKey: ta}, nil)
	first := e.post(e.submitPath("oauth"), body, e.keys["alice"])
	if first.status != 200 || first.act.Status != api.StatusCompleted {
		t.Fatalf("sign-in: %d %s", first.status, first.body)
	}
	// The reply is lost; the same bytes again 60 s later, past the token's
	// exp and leeway but well within the ±5-minute window.
	e.skew.Store(int64(60 * time.Second))
	again := e.post(e.submitPath("oauth"), body, e.keys["alice"])
	if again.status != 200 || again.act.ID != first.act.ID {
		t.Fatalf("retry of the identical body: HTTP %d %s; want activity %s", again.status, again.body, first.act.ID)
	}
	if again.act.Result.OauthResult == nil || again.act.Result.OauthResult.CredentialBundle != first.act.Result.OauthResult.CredentialBundle {
		t.Fatalf("retry did not return the sign-in's credential bundle: %+v", again.act.Result)
	}

	// A new body with the expired token is still refused.
	other := e.body(api.TypeOauth, api.OauthParams{OidcToken: tok, TargetPublicKey: ta, APIKeyName: "another"}, nil)
	wantError(t, e.post(e.submitPath("oauth"), other, e.keys["alice"]), http.StatusUnauthorized, api.CodeUnauthenticated, "INVALID_OIDC_TOKEN")
}

// An oauth queued behind a request that deletes the key that stamped it is
// refused for the key (UNKNOWN_KEY), not with what the token's claim says:
// a key no longer accepted learns nothing decided after it was revoked.
func TestQueuedOauthWithDeletedKeyGetsUnknownKey(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 1})
	ctx := ctxT(t)
	k1 := carolsOAuthKey(t, e)
	_, tc := newTarget(t)
	tok := e.mintToken("carol-sub", tc)
	yes := true
	invalidating := e.body(api.TypeOauth, api.OauthParams{OidcToken: tok, TargetPublicKey: tc, InvalidateExisting: &yes}, nil)
	plain := e.body(api.TypeOauth, api.OauthParams{OidcToken: tok, TargetPublicKey: tc, APIKeyName: "plain"}, nil)
	a1, a2 := admitted(t, e, k1, "oauth", invalidating), admitted(t, e, k1, "oauth", plain)

	if r, err := e.srv.runSubmit(ctx, a1); err != nil || r.Status != api.StatusCompleted {
		t.Fatalf("invalidating sign-in: %v %+v", err, r)
	}
	_, err := e.srv.runSubmit(ctx, a2)
	wantRefused(t, err, http.StatusUnauthorized, "UNKNOWN_KEY")
}
