package server

import (
	"crypto/rand"
	"crypto/rsa"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// trustedIssuerEnv is an organization trusting testIssuer (one RSA key,
// kid rsa-1, audience testAudience) with carol linked to its subject
// ext-carol; token signs claims (edited by edit) with header.
func trustedIssuerEnv(t *testing.T) (e *testEnv, targetHex string, token func(header, edit map[string]any) string) {
	t.Helper()
	e = soloEnv(t)
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	ctx := ctxT(t)
	if err := e.srv.TrustOIDCIssuer(ctx, e.org.ID, TrustedIssuer{Issuer: testIssuer, Audience: testAudience, Keys: []TrustedKey{{KeyID: "rsa-1", Key: &key.PublicKey}}}); err != nil {
		t.Fatal(err)
	}
	if err := e.srv.LinkOIDCSubject(ctx, e.org.ID, e.user("carol"), testIssuer, "ext-carol"); err != nil {
		t.Fatal(err)
	}
	_, targetHex = newTarget(t)
	now := time.Now()
	token = func(header, edit map[string]any) string {
		c := map[string]any{"iss": testIssuer, "sub": "ext-carol", "aud": testAudience, "iat": now.Unix(),
			"exp": now.Add(5 * time.Minute).Unix(), "nonce": sha256Hex(targetHex), "jti": randomHex(8)}
		for k, v := range edit {
			c[k] = v
		}
		return jwt(t, header, c, rs256(t, key))
	}
	return e, targetHex, token
}

// OpenID Connect Core 1.0 §3.1.3.7: a token for several audiences must say
// in azp which client it was issued to, and one issued to another client
// of the same provider that merely lists this organization's client id
// among its audiences is not this organization's to exchange.
func TestOauthRefusesTokensIssuedToAnotherClient(t *testing.T) {
	e, targetHex, token := trustedIssuerEnv(t)
	header := map[string]any{"alg": "RS256", "typ": "JWT", "kid": "rsa-1"}
	both := []string{"another-client", testAudience}
	long := strings.Repeat("z", 10_000)
	for _, c := range []struct {
		name string
		edit map[string]any
		want string
	}{
		{"azp another client, several audiences", map[string]any{"aud": both, "azp": "another-client"}, `authorized party (azp) "another-client" is not "` + testAudience + `"`},
		{"azp empty", map[string]any{"aud": both, "azp": ""}, `authorized party (azp) "" is not`},
		{"several audiences, no azp", map[string]any{"aud": both}, "2 audiences (aud) and no authorized party (azp)"},
		{"azp very long", map[string]any{"aud": both, "azp": long}, "authorized party (azp)"},
	} {
		r := e.postOauth(e.org.ID, e.keys["alice"], token(header, c.edit), targetHex)
		if r.status != 401 || r.err.Code != api.CodeUnauthenticated || !strings.Contains(r.err.Message, c.want) {
			t.Errorf("%s: HTTP %d %.400s; want 401 with %q", c.name, r.status, r.body, c.want)
		}
		if len(r.body) > 2048 {
			t.Errorf("%s: the refusal is %d bytes; the token's value must be quoted cut short", c.name, len(r.body))
		}
	}
	// Issued to this organization's client: accepted, with one audience or
	// several. With this client as the only audience, azp may name another
	// client: Google's tokens for an Android or iOS app's backend carry aud =
	// the backend's client id and azp = the app's own.
	ctx := ctxT(t)
	for _, edit := range []map[string]any{{"aud": both, "azp": testAudience}, {"azp": testAudience}, nil, {"azp": "123-android.apps.googleusercontent.com"}} {
		act := mustComplete(t)(e.clients["alice"].OAuth(ctx, api.OauthParams{OidcToken: token(header, edit), TargetPublicKey: targetHex}))
		if got := act.Result.OauthResult.UserID; got != e.user("carol") {
			t.Fatalf("claims %v: signed in as %s, want carol", edit, got)
		}
	}
}

// An issuer signs its access tokens (RFC 9068, typ at+jwt) and logout
// tokens with the same keys as its ID tokens, often with the same iss, sub
// and aud: only an ID token (typ JWT, or none) signs a user in.
func TestOauthRefusesTokensThatAreNotIDTokens(t *testing.T) {
	e, targetHex, token := trustedIssuerEnv(t)
	for _, typ := range []string{"at+jwt", "application/at+jwt", "logout+jwt", "JOSE", "", strings.Repeat("x", 10_000)} {
		r := e.postOauth(e.org.ID, e.keys["alice"], token(map[string]any{"alg": "RS256", "kid": "rsa-1", "typ": typ}, nil), targetHex)
		if r.status != 401 || r.err.Code != api.CodeUnauthenticated || !strings.Contains(r.err.Message, "JWT type (typ)") || !strings.Contains(r.err.Message, "send the provider's ID token") {
			t.Errorf("typ %.20q: HTTP %d %.400s; want 401 refusing the typ", typ, r.status, r.body)
		}
		if len(r.body) > 2048 {
			t.Errorf("typ %.20q: the refusal is %d bytes; the token's value must be quoted cut short", typ, len(r.body))
		}
	}
	ctx := ctxT(t)
	for _, header := range []map[string]any{
		{"alg": "RS256", "kid": "rsa-1", "typ": "JWT"},
		{"alg": "RS256", "kid": "rsa-1", "typ": "jwt"},
		{"alg": "RS256", "kid": "rsa-1", "typ": "application/jwt"},
		{"alg": "RS256", "kid": "rsa-1"},
	} {
		mustComplete(t)(e.clients["alice"].OAuth(ctx, api.OauthParams{OidcToken: token(header, nil), TargetPublicKey: targetHex}))
	}
}
