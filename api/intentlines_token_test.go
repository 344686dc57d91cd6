package api

import (
	"encoding/json"
	"strings"
	"testing"
)

// unknownIntent decodes body as a reply's intent would be.
func unknownIntent(t *testing.T, body string) Intent {
	t.Helper()
	var in Intent
	if err := json.Unmarshal([]byte(body), &in); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	return in
}

// An operation vigil does not know that links an OIDC identity to a member
// (the real service's create_oauth_providers) names whose identity it links
// and to whom, as vigil's own oauth does; so does vigil's oauth sent with a
// field vigil does not know, which falls to the generic lines.
func TestGenericIntentLinesShowWhoseOIDCIdentity(t *testing.T) {
	token := jwtWith(t, map[string]any{"iss": "https://accounts.google.com", "sub": "attacker-sub-42", "email": "mallory@evil.example"})
	users := []User{{UserID: "u-alice", UserName: "alice", OauthProviders: []OauthProvider{{Issuer: "https://accounts.google.com", Subject: "attacker-sub-42"}}}}
	for name, body := range map[string]string{
		"unknown operation":     `{"createOauthProvidersIntent":{"userId":"u-alice","oauthProviders":[{"providerName":"google","oidcToken":"` + token + `"}]}}`,
		"oauth, one field more": `{"oauthIntent":{"oidcToken":"` + token + `","targetPublicKey":"04ab","newField":"x"}}`,
	} {
		shown := ShowIntent(unknownIntent(t, body), users)
		text := strings.Join(shown.Lines, "\n")
		for _, want := range []string{UnverifiedClaimsLabel, `sub:   "attacker-sub-42"`, `email: "mallory@evil.example"`, "user:  " + NameWithID("alice", "u-alice")} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: the lines lack %q:\n%s", name, want, text)
			}
		}
		if strings.Contains(text, token) || len(shown.Doubts) != 0 {
			t.Errorf("%s: the token is shown, or a readable one raises doubts %v:\n%s", name, shown.Doubts, text)
		}
	}
	shown := ShowIntent(unknownIntent(t, `{"createOauthProvidersIntent":{"oauthProviders":[{"oidcToken":"a.b"}]}}`), users)
	if len(shown.Doubts) == 0 {
		t.Errorf("a token whose claims cannot be read raises no doubt:\n%s", strings.Join(shown.Lines, "\n"))
	}
}
