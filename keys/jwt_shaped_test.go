package keys

import (
	"encoding/base64"
	"slices"
	"strings"
	"testing"
)

// testJWT is a token in the compact form an OIDC provider issues.
func testJWT() string {
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(`{"alg":"RS256","kid":"k1","typ":"JWT"}`)) + "." +
		enc([]byte(`{"iss":"https://accounts.example","sub":"1234","nonce":"ab12"}`)) + "." +
		enc([]byte("a signature of 32 or more bytes!"))
}

// A provider token given where a file name, an id or a key name goes is a
// secret, found alone or inside a longer argument, and described as a token
// without being quoted; file names with dots are not tokens.
func TestJWTShapedWordsAreSecrets(t *testing.T) {
	jwt := testJWT()
	unsigned := strings.Join(strings.Split(jwt, ".")[:2], ".") + "."
	for _, s := range []string{jwt, unsigned, " " + jwt + "\n", "id_token=" + jwt, `"` + jwt + `",`} {
		if !HasSecretToken(s) {
			t.Errorf("HasSecretToken(%q) = false, want a provider token found", s)
		}
	}
	if !PathLooksSecret(jwt) || !slices.Contains(SecretTokens("token:"+jwt), jwt) {
		t.Errorf("the token is not found as a path (%v) or inside token:… (%q)", PathLooksSecret(jwt), SecretTokens("token:"+jwt))
	}
	for _, s := range []string{"report.v2.json", "eyJ.json", "archive.tar.gz", "a.b.c", "eyJhbGciOiJIUzI1NiJ9.json", "eyJ0eXAiOiJKV1QiLCJhbGci.a.b.c"} {
		if HasSecretToken(s) {
			t.Errorf("HasSecretToken(%q) = true, want a file name", s)
		}
	}
	for _, shown := range []string{ShowPath(jwt), ShowName(jwt), SecretArg(jwt, "a file name"), secretNameError(jwt).Error()} {
		if strings.Contains(shown, jwt[:12]) || !strings.Contains(shown, "provider token (a JWT)") || strings.Contains(shown, "private key") {
			t.Errorf("the token is shown as %q; want it described as a provider token, not quoted", shown)
		}
	}
}
