package server

import (
	"context"
	"strings"
	"testing"
	"time"
)

// A token's window is [nbf - leeway, exp + leeway): open at its end, as RFC
// 7519 §4.1.4 says and as an API key is refused at exactly its expiry. At
// exactly exp + leeway the token is refused; a nanosecond before, accepted.
func TestOIDCTokenRefusedExactlyAtExpPlusLeeway(t *testing.T) {
	e := newEnv(t)
	minted := time.Unix(1_900_000_000, 0)
	e.pin(minted)
	_, th := newTarget(t)
	tok := e.mintToken("alice-sub", th) // exp = minted + lifetime, whole seconds
	end := minted.Add(oidcTokenLifetime + oidcLeeway)

	e.pin(end.Add(-time.Nanosecond))
	if _, err := e.srv.verifyOIDCToken(context.Background(), e.srv.db.read, tok, e.org.ID); err != nil {
		t.Fatalf("token refused a nanosecond before exp+leeway: %v", err)
	}
	e.pin(end)
	_, err := e.srv.verifyOIDCToken(context.Background(), e.srv.db.read, tok, e.org.ID)
	if err == nil || !strings.Contains(err.Error(), "token has expired") {
		t.Fatalf("token at exactly exp+leeway (%s): %v, want it refused as expired", end.UTC(), err)
	}
}

// The window's start is closed: a token whose nbf (and iat) lie ahead is
// accepted from exactly nbf - leeway, and refused a nanosecond earlier.
func TestOIDCTokenValidFromNotBeforeMinusLeeway(t *testing.T) {
	e := newEnv(t)
	minted := time.Unix(1_900_000_000, 0)
	start := minted.Add(time.Minute) // nbf and iat
	e.pin(minted)
	_, th := newTarget(t)
	for _, claim := range []string{"nbf", "iat"} {
		tok, err := e.srv.mintLocalOIDCToken(e.org.ID, "alice-sub", map[string]any{"nonce": sha256Hex(th), claim: start.Unix()})
		if err != nil {
			t.Fatal(err)
		}
		e.pin(start.Add(-oidcLeeway - time.Nanosecond))
		if _, err := e.srv.verifyOIDCToken(context.Background(), e.srv.db.read, tok, e.org.ID); err == nil {
			t.Errorf("%s: token accepted a nanosecond before %s - leeway", claim, claim)
		}
		e.pin(start.Add(-oidcLeeway))
		if _, err := e.srv.verifyOIDCToken(context.Background(), e.srv.db.read, tok, e.org.ID); err != nil {
			t.Errorf("%s: token refused at exactly %s - leeway: %v", claim, claim, err)
		}
		e.pin(minted)
	}
}
