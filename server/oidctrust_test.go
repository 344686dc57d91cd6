package server

import (
	"context"
	"crypto"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

const (
	testIssuer   = "https://login.example.test"
	testAudience = "vigil-client-id"
)

// jwt builds a compact JWT with the standard library, independently of the
// server's verifier. sign gets the signing input and returns the signature.
func jwt(t *testing.T, header, claims map[string]any, sign func(signing []byte) []byte) string {
	t.Helper()
	hb, err := json.Marshal(header)
	if err != nil {
		t.Fatal(err)
	}
	cb, err := json.Marshal(claims)
	if err != nil {
		t.Fatal(err)
	}
	signing := base64.RawURLEncoding.EncodeToString(hb) + "." + base64.RawURLEncoding.EncodeToString(cb)
	return signing + "." + base64.RawURLEncoding.EncodeToString(sign([]byte(signing)))
}

func rs256(t *testing.T, key *rsa.PrivateKey) func([]byte) []byte {
	return func(signing []byte) []byte {
		sum := sha256.Sum256(signing)
		sig, err := rsa.SignPKCS1v15(rand.Reader, key, crypto.SHA256, sum[:])
		if err != nil {
			t.Fatal(err)
		}
		return sig
	}
}

func es256(t *testing.T, key *ecdsa.PrivateKey) func([]byte) []byte {
	return func(signing []byte) []byte {
		sum := sha256.Sum256(signing)
		r, s, err := ecdsa.Sign(rand.Reader, key, sum[:])
		if err != nil {
			t.Fatal(err)
		}
		sig := make([]byte, 64)
		r.FillBytes(sig[:32])
		s.FillBytes(sig[32:])
		return sig
	}
}

// testJWKS is the key set a provider would publish, written by hand (RFC 7517/7518).
func testJWKS(rsaPub *rsa.PublicKey, ecPub *ecdsa.PublicKey) []byte {
	b64 := base64.RawURLEncoding.EncodeToString
	ecBytes, _ := ecPub.Bytes() // 0x04 ‖ X ‖ Y
	set := map[string]any{"keys": []map[string]string{
		{"kty": "RSA", "kid": "rsa-1", "use": "sig", "alg": "RS256", "n": b64(rsaPub.N.Bytes()), "e": b64(big.NewInt(int64(rsaPub.E)).Bytes())},
		{"kty": "EC", "kid": "ec-1", "use": "sig", "alg": "ES256", "crv": "P-256", "x": b64(ecBytes[1:33]), "y": b64(ecBytes[33:])},
		{"kty": "RSA", "kid": "enc-1", "use": "enc", "n": "AQAB", "e": "AQAB"},
		{"kty": "OKP", "kid": "ed-1", "crv": "Ed25519", "x": "AA"},
	}}
	b, _ := json.Marshal(set)
	return b
}

// postOauth submits an oauth activity for orgID stamped by st, by hand.
func (e *testEnv) postOauth(orgID string, st keys.Stamper, token, targetHex string) reply {
	e.t.Helper()
	body := e.body(api.TypeOauth, api.OauthParams{OidcToken: token, TargetPublicKey: targetHex}, map[string]any{"organizationId": orgID})
	return e.post(e.submitPath("oauth"), body, st)
}

func TestOauthTrustedIssuer(t *testing.T) {
	e := soloEnv(t)
	ctx := ctxT(t)
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	ecKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	otherRSA, _ := rsa.GenerateKey(rand.Reader, 2048)

	trusted, err := ParseOIDCJWKS(testJWKS(&rsaKey.PublicKey, &ecKey.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	if len(trusted) != 2 || trusted[0].KeyID != "rsa-1" || !rsaKey.PublicKey.Equal(trusted[0].Key) || trusted[1].KeyID != "ec-1" || !ecKey.PublicKey.Equal(trusted[1].Key) {
		t.Fatalf("ParseOIDCJWKS = %+v, want rsa-1 and ec-1 with the provider's keys", trusted)
	}
	if err := e.srv.TrustOIDCIssuer(ctx, e.org.ID, TrustedIssuer{Issuer: testIssuer, Audience: testAudience, Keys: trusted}); err != nil {
		t.Fatal(err)
	}
	if err := e.srv.LinkOIDCSubject(ctx, e.org.ID, e.user("carol"), testIssuer, "ext-carol"); err != nil {
		t.Fatal(err)
	}

	// Organization B, in the same service, does not trust the issuer.
	beaKey, _ := keys.Generate(keys.SchemeP256)
	orgB, err := e.srv.CreateOrganization(ctx, "Org B", 1, []UserSpec{{Name: "bea", Root: true, APIKeys: []APIKeySpec{{Name: "bea", PublicKey: beaKey.PublicKeyHex()}}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.srv.LinkOIDCSubject(ctx, orgB.ID, orgB.UserIDs["bea"], testIssuer, "ext-carol"); err == nil || !strings.Contains(err.Error(), "not trusted") {
		t.Fatalf("linking a subject of an untrusted issuer in org B: %v", err)
	}

	target, _ := ecdh.P256().GenerateKey(rand.Reader)
	targetHex := hex.EncodeToString(target.PublicKey().Bytes())
	now := time.Now()
	claims := func(edit map[string]any) map[string]any {
		c := map[string]any{"iss": testIssuer, "sub": "ext-carol", "aud": []string{"another-client", testAudience}, "azp": testAudience,
			"iat": now.Unix(), "nbf": now.Unix(), "exp": now.Add(5 * time.Minute).Unix(), "nonce": sha256Hex(targetHex)}
		for k, v := range edit {
			c[k] = v
		}
		return c
	}
	rsHeader := map[string]any{"alg": "RS256", "typ": "JWT", "kid": "rsa-1"}
	good := jwt(t, rsHeader, claims(nil), rs256(t, rsaKey))

	// Accepted for A: a new API key for carol, delivered in the HPKE bundle.
	act := mustComplete(t)(e.clients["alice"].OAuth(ctx, api.OauthParams{OidcToken: good, TargetPublicKey: targetHex}))
	res := act.Result.OauthResult
	if res.UserID != e.user("carol") {
		t.Fatalf("signed in as %s, want carol %s", res.UserID, e.user("carol"))
	}
	priv, err := keys.DecryptCredentialBundle(res.CredentialBundle, target)
	if err != nil {
		t.Fatalf("open bundle: %v", err)
	}
	newKey, err := keys.ParsePrivateHex(keys.SchemeP256, hex.EncodeToString(priv))
	if err != nil {
		t.Fatal(err)
	}
	if who, err := e.client(newKey).Whoami(ctx); err != nil || who.UserID != e.user("carol") {
		t.Fatalf("whoami with the new key: %v %+v", err, who)
	}
	// ES256 from the same issuer, key chosen by kid, and by type without kid.
	mustComplete(t)(e.clients["alice"].OAuth(ctx, api.OauthParams{OidcToken: jwt(t, map[string]any{"alg": "ES256", "kid": "ec-1"}, claims(map[string]any{"aud": testAudience}), es256(t, ecKey)), TargetPublicKey: targetHex}))
	mustComplete(t)(e.clients["alice"].OAuth(ctx, api.OauthParams{OidcToken: jwt(t, map[string]any{"alg": "RS256"}, claims(map[string]any{"jti": "2"}), rs256(t, rsaKey)), TargetPublicKey: targetHex}))

	// Refused for B, although the token is good.
	r := e.postOauth(orgB.ID, beaKey, good, targetHex)
	if r.status != 401 || r.err.Code != api.CodeUnauthenticated || !strings.Contains(r.err.Message, `issuer "`+testIssuer+`" is not trusted by this organization`) {
		t.Fatalf("org B: HTTP %d %s", r.status, r.body)
	}

	parts := strings.Split(good, ".")
	payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
	tampered := parts[0] + "." + base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(payload), "ext-carol", "ext-alic", 1))) + "." + parts[2]
	pubDER, _ := x509.MarshalPKIXPublicKey(&rsaKey.PublicKey)
	pubPEM := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER})
	hs256 := func(signing []byte) []byte { m := hmac.New(sha256.New, pubPEM); m.Write(signing); return m.Sum(nil) }
	for _, c := range []struct{ name, token, want string }{
		{"wrong audience", jwt(t, rsHeader, claims(map[string]any{"aud": "someone-else"}), rs256(t, rsaKey)), `audience (aud) does not include "` + testAudience + `"`},
		{"no audience", jwt(t, rsHeader, claims(map[string]any{"aud": nil}), rs256(t, rsaKey)), "audience (aud) does not include"},
		{"expired", jwt(t, rsHeader, claims(map[string]any{"exp": now.Add(-2 * time.Minute).Unix()}), rs256(t, rsaKey)), "token has expired"},
		{"no expiry", jwt(t, rsHeader, claims(map[string]any{"exp": nil}), rs256(t, rsaKey)), "no expiry (exp)"},
		{"not yet valid", jwt(t, rsHeader, claims(map[string]any{"nbf": now.Add(10 * time.Minute).Unix()}), rs256(t, rsaKey)), "not valid yet (nbf"},
		{"issued in the future", jwt(t, rsHeader, claims(map[string]any{"iat": now.Add(10 * time.Minute).Unix()}), rs256(t, rsaKey)), "issued in the future (iat"},
		{"alg none", jwt(t, map[string]any{"alg": "none"}, claims(nil), func([]byte) []byte { return nil }), `algorithm "none" (unsigned token) is refused`},
		{"HS256 keyed with the public key", jwt(t, map[string]any{"alg": "HS256", "kid": "rsa-1"}, claims(nil), hs256), `algorithm "HS256" is refused: HMAC`},
		{"unknown kid", jwt(t, map[string]any{"alg": "RS256", "kid": "rsa-2"}, claims(nil), rs256(t, rsaKey)), `key id (kid) "rsa-2" is not among the keys`},
		{"tampered payload", tampered, "RS256 signature does not verify"},
		{"another RSA key under a trusted kid", jwt(t, rsHeader, claims(nil), rs256(t, otherRSA)), "RS256 signature does not verify"},
		{"ES256 header on the RSA key", jwt(t, map[string]any{"alg": "ES256", "kid": "rsa-1"}, claims(nil), es256(t, ecKey)), `algorithm mismatch: the token says ES256 but key "rsa-1"`},
		{"RS256 header on the EC key", jwt(t, map[string]any{"alg": "RS256", "kid": "ec-1"}, claims(nil), rs256(t, rsaKey)), `algorithm mismatch: the token says RS256 but key "ec-1"`},
		{"untrusted issuer", jwt(t, rsHeader, claims(map[string]any{"iss": "https://evil.example.test"}), rs256(t, rsaKey)), `issuer "https://evil.example.test" is not trusted`},
		{"critical header", jwt(t, map[string]any{"alg": "RS256", "kid": "rsa-1", "crit": []string{"exp"}}, claims(nil), rs256(t, rsaKey)), "critical extensions"},
	} {
		r := e.postOauth(e.org.ID, e.keys["alice"], c.token, targetHex)
		if r.status != 401 || r.err.Code != api.CodeUnauthenticated || !strings.Contains(r.err.Message, c.want) {
			t.Errorf("%s: HTTP %d %s; want 401 with %q", c.name, r.status, r.body, c.want)
		}
	}
	// A good token whose subject is linked to nobody: the activity fails, naming it.
	stranger := jwt(t, rsHeader, claims(map[string]any{"sub": "ext-stranger"}), rs256(t, rsaKey))
	mustFail(t, "ext-stranger")(e.clients["alice"].OAuth(ctx, api.OauthParams{OidcToken: stranger, TargetPublicKey: targetHex}))

	// Replacing the issuer's keys (the provider rotated) drops the old ones.
	if err := e.srv.TrustOIDCIssuer(ctx, e.org.ID, TrustedIssuer{Issuer: testIssuer, Audience: testAudience, Keys: []TrustedKey{{KeyID: "rsa-2", Key: &otherRSA.PublicKey}}}); err != nil {
		t.Fatal(err)
	}
	if r := e.postOauth(e.org.ID, e.keys["alice"], jwt(t, rsHeader, claims(map[string]any{"jti": "3"}), rs256(t, rsaKey)), targetHex); r.status != 401 || !strings.Contains(r.err.Message, `"rsa-1" is not among`) {
		t.Fatalf("retired key still trusted: HTTP %d %s", r.status, r.body)
	}
	mustComplete(t)(e.clients["alice"].OAuth(ctx, api.OauthParams{OidcToken: jwt(t, map[string]any{"alg": "RS256", "kid": "rsa-2"}, claims(nil), rs256(t, otherRSA)), TargetPublicKey: targetHex}))
}

func TestTrustOIDCIssuerRefusesBadConfigurations(t *testing.T) {
	e := soloEnv(t)
	ctx := context.Background()
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	p384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	weak := &rsa.PublicKey{N: new(big.Int).Lsh(big.NewInt(1), 1023), E: 65537} // 1024 bits
	key := []TrustedKey{{KeyID: "k", Key: &ec.PublicKey}}
	for _, c := range []struct {
		name string
		org  string
		iss  TrustedIssuer
		want string
	}{
		{"local issuer", e.org.ID, TrustedIssuer{Issuer: LocalOIDCIssuer, Audience: "a", Keys: key}, "already trusts"},
		{"http issuer", e.org.ID, TrustedIssuer{Issuer: "http://login.example.test", Audience: "a", Keys: key}, "https URL"},
		{"no audience", e.org.ID, TrustedIssuer{Issuer: testIssuer, Keys: key}, "audience"},
		{"no keys", e.org.ID, TrustedIssuer{Issuer: testIssuer, Audience: "a"}, "1 to 32 verification keys"},
		{"P-384 key", e.org.ID, TrustedIssuer{Issuer: testIssuer, Audience: "a", Keys: []TrustedKey{{Key: &p384.PublicKey}}}, "P-256"},
		{"1024-bit RSA", e.org.ID, TrustedIssuer{Issuer: testIssuer, Audience: "a", Keys: []TrustedKey{{Key: weak}}}, "2048 to 8192 bits"},
		{"HMAC secret", e.org.ID, TrustedIssuer{Issuer: testIssuer, Audience: "a", Keys: []TrustedKey{{Key: []byte("secret")}}}, "cannot verify ES256 or RS256"},
		{"kid twice", e.org.ID, TrustedIssuer{Issuer: testIssuer, Audience: "a", Keys: []TrustedKey{key[0], key[0]}}, "given twice"},
		{"unknown organization", "no-such-org", TrustedIssuer{Issuer: testIssuer, Audience: "a", Keys: key}, "not found"},
	} {
		if err := e.srv.TrustOIDCIssuer(ctx, c.org, c.iss); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
	for _, bad := range []string{`{"keys": [{"kty": "EC", "crv": "P-384", "x": "AA", "y": "AA"}]}`, `{"keys": []}`, `[1, 2]`} {
		if _, err := ParseOIDCJWKS([]byte(bad)); err == nil {
			t.Errorf("ParseOIDCJWKS(%s) accepted", bad)
		}
	}
}
