package server

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A token's nonce is attacker text of any length (a token fits ~12 KB of
// it in a request). The refusal still names the nonce it needs, but quotes
// only the start of the one the token carries, as other quoted values are.
func TestOauthNonceMismatchQuotesTheTokensNonceClipped(t *testing.T) {
	e := soloEnv(t)
	_, target := newTarget(t)
	long := strings.Repeat("n0nce", 2400) // 12,000 bytes
	tok, err := e.srv.mintLocalOIDCToken(e.org.ID, "carol-sub", map[string]any{"nonce": long})
	if err != nil {
		t.Fatal(err)
	}
	r := e.post(e.submitPath("oauth"), e.body(api.TypeOauth, api.OauthParams{OidcToken: tok, TargetPublicKey: target}, nil), e.keys["alice"])
	wantError(t, r, 400, api.CodeInvalidArgument, "OIDC_NONCE_MISMATCH")
	if !strings.Contains(r.err.Message, sha256Hex(target)) {
		t.Errorf("the refusal does not name the nonce the request needs (%s): %s", sha256Hex(target), r.err.Message)
	}
	if !strings.Contains(r.err.Message, long[:64]) {
		t.Errorf("the refusal does not show the start of the token's nonce: %.300s", r.err.Message)
	}
	if len(r.err.Message) > 1024 {
		t.Errorf("the refusal is %d bytes: it quotes the token's whole %d-byte nonce", len(r.err.Message), len(long))
	}
}
