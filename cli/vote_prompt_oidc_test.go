package cli

import (
	"context"
	"encoding/base64"
	"io"
	"strings"
	"testing"
)

// The approve prompt of an operation vigil does not know that carries an
// OIDC token (the real service's createOauthProvidersIntent links an
// identity to a member) shows the token's unverified subject and names the
// member of the organization linked to it, or that none is, as for an
// oauth sign-in.
func TestVotePromptNamesWhoseOIDCIdentityAnUnknownIntentLinks(t *testing.T) {
	e := newVerbEnv(t)
	enc := base64.RawURLEncoding.EncodeToString
	token := enc([]byte(`{"alg":"ES256"}`)) + "." + enc([]byte(`{"iss":"https://accounts.google.com","sub":"attacker-sub-42"}`)) + "." + enc([]byte("sig"))
	shown := shownWithIntent(t, `{"createOauthProvidersIntent":{"userId":"`+e.userID("alice")+`","oauthProviders":[{"providerName":"google","oidcToken":"`+token+`"}]}}`)
	prompt := voteDetails(context.Background(), proc{stderr: io.Discard}, e.client("bob"), shown)
	for _, want := range []string{`sub:   "attacker-sub-42"`, "user:  (no user of this organization is linked to that subject)"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the approve prompt lacks %q:\n%s", want, prompt)
		}
	}
}
