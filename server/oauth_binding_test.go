package server

import (
	"crypto/ecdh"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// mintToken mints a local-issuer token for subject, bound to targetHex.
func (e *testEnv) mintToken(subject, targetHex string) string {
	e.t.Helper()
	token, err := e.srv.MintDemoOIDCToken(e.org.ID, subject, sha256Hex(targetHex))
	if err != nil {
		e.t.Fatal(err)
	}
	return token
}

func newTarget(t *testing.T) (*ecdh.PrivateKey, string) {
	t.Helper()
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k, hex.EncodeToString(k.PublicKey().Bytes())
}

// sha256Hex is the nonce the SDKs compute: lowercase hex SHA-256 of the
// key string.
func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// alice signs in; operator (not root) reads her token in the activity's
// intent and sends it with his own target key, then with hers: neither gets
// him, or anyone, an API key of alice.
func TestOauthTokenSeenInTheIntentIsWorthNothingToOtherMembers(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	e.addPolicy("Sign-in with the local OIDC issuer", api.EffectAllow, "activity.type == 'ACTIVITY_TYPE_OAUTH'", "")
	_, aliceTarget := newTarget(t)
	act, err := e.clients["alice"].OAuth(ctx, api.OauthParams{OidcToken: e.mintToken("alice-sub", aliceTarget), TargetPublicKey: aliceTarget})
	if err != nil || act.Status != api.StatusCompleted {
		t.Fatalf("alice's sign-in: %v %+v", err, act)
	}
	seen, err := e.clients["operator"].GetActivity(ctx, act.ID)
	if err != nil {
		t.Fatal(err)
	}
	stolen := seen.Intent.OauthIntent.OidcToken
	keysBefore := len(e.oauthKeysOf(e.user("alice")))

	_, mine := newTarget(t)
	r := e.post(e.submitPath("oauth"), e.body(api.TypeOauth, api.OauthParams{OidcToken: stolen, TargetPublicKey: mine}, nil), e.keys["operator"])
	wantError(t, r, 400, api.CodeInvalidArgument, "OIDC_NONCE_MISMATCH")
	if !strings.Contains(r.err.Message, sha256Hex(mine)) {
		t.Errorf("the refusal does not name the nonce the request needs (%s): %s", sha256Hex(mine), r.err.Message)
	}
	// With alice's own target key the bundle would be sealed to her, but the
	// token has been exchanged already.
	r = e.post(e.submitPath("oauth"), e.body(api.TypeOauth, api.OauthParams{OidcToken: stolen, TargetPublicKey: aliceTarget}, nil), e.keys["operator"])
	wantError(t, r, 401, api.CodeUnauthenticated, "INVALID_OIDC_TOKEN")
	if !strings.Contains(r.err.Message, "already been exchanged") {
		t.Errorf("replay refusal does not say the token was used: %s", r.err.Message)
	}
	if n := len(e.oauthKeysOf(e.user("alice"))); n != keysBefore {
		t.Fatalf("alice has %d OAuth keys after the replays, %d before", n, keysBefore)
	}
}

// oauthKeysOf lists the OAuth API keys of userID.
func (e *testEnv) oauthKeysOf(userID string) []string {
	e.t.Helper()
	u, err := e.clients["alice"].GetUser(ctxT(e.t), userID)
	if err != nil {
		e.t.Fatal(err)
	}
	var ids []string
	for _, k := range u.APIKeys {
		if k.Credential.Type == api.CredentialOauthKeyP256 {
			ids = append(ids, k.APIKeyID)
		}
	}
	return ids
}

func TestOauthTokenMustCarryTheTargetKeysNonce(t *testing.T) {
	e := soloEnv(t)
	_, target := newTarget(t)
	submit := func(token, key string) reply {
		return e.post(e.submitPath("oauth"), e.body(api.TypeOauth, api.OauthParams{OidcToken: token, TargetPublicKey: key}, nil), e.keys["alice"])
	}

	unbound, err := e.srv.mintLocalOIDCToken(e.org.ID, "carol-sub", nil)
	if err != nil {
		t.Fatal(err)
	}
	r := submit(unbound, target)
	wantError(t, r, 400, api.CodeInvalidArgument, "OIDC_NONCE_MISMATCH")
	if !strings.Contains(r.err.Message, "no nonce") || !strings.Contains(r.err.Message, sha256Hex(target)) {
		t.Errorf("missing nonce: %s", r.err.Message)
	}

	// The nonce is of the key as sent: the same key in upper case is
	// another string, and the message says what differs.
	upper := strings.ToUpper(target)
	r = submit(e.mintToken("carol-sub", target), upper)
	wantError(t, r, 400, api.CodeInvalidArgument, "OIDC_NONCE_MISMATCH")
	if !strings.Contains(r.err.Message, "lowercase") {
		t.Errorf("case mismatch: %s", r.err.Message)
	}
	if r = submit(e.mintToken("carol-sub", upper), upper); r.status != 200 || r.act.Status != api.StatusCompleted {
		t.Fatalf("a token bound to the key as sent (upper case): HTTP %d %s", r.status, r.body)
	}
}

func TestOauthTokenSignsInOnce(t *testing.T) {
	e := soloEnv(t)
	_, target := newTarget(t)
	token := e.mintToken("carol-sub", target)
	first := e.body(api.TypeOauth, api.OauthParams{OidcToken: token, TargetPublicKey: target}, nil)
	exchanged := e.post(e.submitPath("oauth"), first, e.keys["alice"])
	if exchanged.status != 200 || exchanged.act.Status != api.StatusCompleted {
		t.Fatalf("first exchange: HTTP %d %s", exchanged.status, exchanged.body)
	}
	// A retry of the same request is answered with the same activity: the
	// bundle it made is not lost to a dropped reply.
	if again := e.post(e.submitPath("oauth"), first, e.keys["alice"]); again.status != 200 || again.act.ID != exchanged.act.ID {
		t.Fatalf("retry of the same body: HTTP %d %s, want activity %s", again.status, again.body, exchanged.act.ID)
	}

	// Any other request with the token is a replay, even with the ECDSA
	// signature altered to (r, n-s), which verifies as well.
	parts := strings.Split(token, ".")
	sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
	s := new(big.Int).Sub(elliptic.P256().Params().N, new(big.Int).SetBytes(sig[32:]))
	s.FillBytes(sig[32:])
	altered := parts[0] + "." + parts[1] + "." + base64.RawURLEncoding.EncodeToString(sig)
	for name, tok := range map[string]string{"same token": token, "base64 of it": base64.StdEncoding.EncodeToString([]byte(token)), "altered signature": altered} {
		r := e.post(e.submitPath("oauth"), e.body(api.TypeOauth, api.OauthParams{OidcToken: tok, TargetPublicKey: target, APIKeyName: "again"}, nil), e.keys["alice"])
		wantError(t, r, 401, api.CodeUnauthenticated, "INVALID_OIDC_TOKEN")
		if !strings.Contains(r.err.Message, "already been exchanged") || !strings.Contains(r.err.Message, exchanged.act.ID) {
			t.Errorf("%s: %s", name, r.err.Message)
		}
	}
}

// An exchanged token is remembered until it expires, then forgotten.
func TestOauthExchangedTokensArePrunedOnceExpired(t *testing.T) {
	e := soloEnv(t)
	_, target := newTarget(t)
	count := func() int {
		var n int
		if err := e.srv.db.read.QueryRowContext(ctxT(t), `SELECT COUNT(*) FROM oidc_exchanged_tokens`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	mustComplete(t)(e.clients["alice"].OAuth(ctxT(t), api.OauthParams{OidcToken: e.mintToken("carol-sub", target), TargetPublicKey: target}))
	if n := count(); n != 1 {
		t.Fatalf("%d exchanged tokens remembered, want 1", n)
	}
	e.skew.Store(int64(oidcTokenLifetime + oidcLeeway + 2*time.Second))
	later := e.body(api.TypeOauth, api.OauthParams{OidcToken: e.mintToken("carol-sub", target), TargetPublicKey: target},
		map[string]any{"timestampMs": jsonMillis(time.Now().Add(time.Duration(e.skew.Load())))})
	if r := e.post(e.submitPath("oauth"), later, e.keys["alice"]); r.status != 200 || r.act.Status != api.StatusCompleted {
		t.Fatalf("later exchange: HTTP %d %s", r.status, r.body)
	}
	if n := count(); n != 1 {
		t.Fatalf("%d exchanged tokens remembered after the first expired, want 1 (the new one)", n)
	}
}
