package cli

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// es256Token is a JWT of issuer iss signed by key, as a provider would issue.
func es256Token(t *testing.T, key *ecdsa.PrivateKey, kid string, claims map[string]any) string {
	t.Helper()
	enc := func(v any) string {
		b, _ := json.Marshal(v)
		return base64.RawURLEncoding.EncodeToString(b)
	}
	signing := enc(map[string]string{"alg": "ES256", "typ": "JWT", "kid": kid}) + "." + enc(claims)
	h := sha256.Sum256([]byte(signing))
	r, s, err := ecdsa.Sign(rand.Reader, key, h[:])
	if err != nil {
		t.Fatal(err)
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return signing + "." + base64.RawURLEncoding.EncodeToString(sig)
}

// `vigil serve --trust-oidc-issuer … --link-oidc-subject …` makes the demo
// organization accept a provider's tokens: 'vigil login oauth' with one saves
// a key of the linked user; a token of an issuer it does not trust is refused.
func TestServeTrustsOIDCIssuerForLoginOAuth(t *testing.T) {
	dir := t.TempDir()
	provider, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	jwk := map[string]string{"kty": "EC", "crv": "P-256", "kid": "k1", "use": "sig", "alg": "ES256",
		"x": base64.RawURLEncoding.EncodeToString(provider.X.FillBytes(make([]byte, 32))),
		"y": base64.RawURLEncoding.EncodeToString(provider.Y.FillBytes(make([]byte, 32)))}
	jwks, _ := json.Marshal(map[string]any{"keys": []any{jwk}})
	jwksFile := filepath.Join(dir, "idp-jwks.json")
	os.WriteFile(jwksFile, jwks, 0o600)
	const iss = "https://idp.example.com"

	_, serveErr := startServe(t, dir, "--demo",
		"--trust-oidc-issuer", iss+",vigil-client="+jwksFile, "--link-oidc-subject", iss+",user-7=carol")
	env := map[string]string{"VIGIL_CONFIG": filepath.Join(dir, "config.toml")}
	now := time.Now().Unix()
	target := filepath.Join(dir, "carol.target")
	code, nonce, errOut := runVigil(t, env, "", "login", "oauth-nonce", "--target-key", target)
	wantExit(t, "login oauth-nonce", code, 0, nonce, errOut)
	token := es256Token(t, provider, "k1", map[string]any{"iss": iss, "aud": "vigil-client", "sub": "user-7", "iat": now, "exp": now + 300,
		"nonce": strings.TrimSpace(nonce)})
	code, out, errOut := runVigil(t, env, token, "login", "oauth", "--target-key", target, "--provider-token", "-", "--name", "carol-idp")
	wantExit(t, "login oauth with the trusted issuer's token", code, 0, out, errOut)
	if !strings.Contains(out, "signed in as") || !strings.Contains(out, "carol") {
		t.Errorf("login oauth printed:\n%s", out)
	}
	if strings.Contains(serveErr.String(), token[len(token)-40:]) {
		t.Error("the service logged the token")
	}

	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	forged := es256Token(t, other, "k1", map[string]any{"iss": iss, "aud": "vigil-client", "sub": "user-7", "iat": now, "exp": now + 300})
	code, out, errOut = runVigil(t, env, forged, "login", "oauth", "--provider-token", "-", "--name", "forged")
	wantExit(t, "login oauth with a token the provider did not sign", code, 1, out, errOut)

	// Usage mistakes stop the service before it starts.
	for _, bad := range [][]string{
		{"--trust-oidc-issuer", iss + "=" + jwksFile},
		{"--trust-oidc-issuer", iss + ",aud=" + filepath.Join(dir, "missing.json")},
		{"--link-oidc-subject", "local,alice"},
	} {
		var e bytes.Buffer
		c := proc{stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: &e, getenv: func(string) string { return "" }}
		args := append([]string{"serve", "--data", t.TempDir(), "--addr", "127.0.0.1:0", "--auth-proxy-addr", "127.0.0.1:0"}, bad...)
		if code := run(context.Background(), c, args); code != 2 {
			t.Errorf("serve %v: exit %d, want 2: %s", bad, code, e.String())
		}
	}
}
