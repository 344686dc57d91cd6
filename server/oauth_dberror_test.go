package server

import (
	"crypto/ecdh"
	"crypto/rand"
	"crypto/rsa"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// A database error while an approved oauth reads the trusted issuers is the
// service failing, not the request: the activity is not FAILED with SQLite's
// text but stays pending, and completes once the database reads again. At
// submission the same error is a 5xx, not INVALID_OIDC_TOKEN (which would
// tell the user their token is bad).
func TestOauthDatabaseErrorIsNotTheActivitysFailure(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2})
	ctx := ctxT(t)
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.srv.TrustOIDCIssuer(ctx, e.org.ID, TrustedIssuer{Issuer: testIssuer, Audience: testAudience,
		Keys: []TrustedKey{{KeyID: "rsa-1", Key: &rsaKey.PublicKey}}}); err != nil {
		t.Fatal(err)
	}
	if err := e.srv.LinkOIDCSubject(ctx, e.org.ID, e.user("carol"), testIssuer, "ext-carol"); err != nil {
		t.Fatal(err)
	}
	target, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	targetHex := hex.EncodeToString(target.PublicKey().Bytes())
	token := func(jti string) string {
		now := time.Now()
		return jwt(t, map[string]any{"alg": "RS256", "kid": "rsa-1"}, map[string]any{"iss": testIssuer, "sub": "ext-carol", "aud": testAudience,
			"iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix(), "nonce": sha256Hex(targetHex), "jti": jti}, rs256(t, rsaKey))
	}
	act, err := e.clients["alice"].OAuth(ctx, api.OauthParams{OidcToken: token("1"), TargetPublicKey: targetHex})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("oauth submission: %v %v", act, err)
	}

	// A read of the trusted issuers that fails, as a damaged page or an I/O
	// error would: the table is out of the way.
	rename := func(from, to string) {
		t.Helper()
		if _, err := e.srv.db.writeDB.ExecContext(ctx, `ALTER TABLE `+from+` RENAME TO `+to); err != nil {
			t.Fatal(err)
		}
	}
	rename("oidc_trusted_issuers", "oidc_trusted_issuers_away")
	if _, err := e.clients["bob"].ApproveActivity(ctx, act.Fingerprint); err == nil {
		t.Fatal("the approval succeeded although the trusted issuers could not be read")
	}
	got, err := e.clients["alice"].GetActivity(ctx, act.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != api.StatusConsensusNeeded || got.Failure != nil {
		t.Fatalf("a database error was recorded as the activity's outcome: %s %+v", got.Status, got.Failure)
	}
	r := e.postOauth(e.org.ID, e.keys["alice"], token("2"), targetHex)
	if r.status < 500 || strings.Contains(string(r.body), "INVALID_OIDC_TOKEN") || strings.Contains(r.err.Message, "no such table") {
		t.Fatalf("submission while the database fails: HTTP %d %s; want a 5xx that does not blame the token", r.status, r.body)
	}

	rename("oidc_trusted_issuers_away", "oidc_trusted_issuers")
	done, err := e.clients["bob"].ApproveActivity(ctx, act.Fingerprint)
	if err != nil || done.Status != api.StatusCompleted {
		t.Fatalf("approval once the database reads again: %v %v", done, err)
	}
}
