package cli

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/hex"
	"io"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server"
)

// The vote prompt of an oauth activity says whose account it touches: the
// issuer and subject its token claims, marked unverified, and the member the
// organization links to that subject; never the token. Against the local
// service (the demo signs in without approval, so the prompt's text is read
// off carol's completed sign-in).
func TestVotePromptNamesWhomAnOauthTokenSignsIn(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	target, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	targetHex := hex.EncodeToString(target.PublicKey().Bytes())
	token, err := e.demo.Server.MintDemoOIDCToken(e.demo.Info.OrganizationID, "carol", api.OauthNonce(targetHex))
	if err != nil {
		t.Fatal(err)
	}
	act, err := e.client("carol").OAuth(ctx, api.OauthParams{OidcToken: token, TargetPublicKey: targetHex})
	if err != nil {
		t.Fatal(err)
	}
	bob := e.client("bob")
	shown, err := getActivityShown(ctx, bob, act.ID)
	if err != nil {
		t.Fatal(err)
	}
	text := voteDetails(ctx, proc{stderr: io.Discard}, bob, shown)
	for _, want := range []string{api.UnverifiedClaimsLabel, `iss:   ` + api.Quote(server.LocalOIDCIssuer), `sub:   "carol"`,
		"user:  " + api.NameWithID("carol", e.userID("carol"))} {
		if !strings.Contains(text, want) {
			t.Errorf("the vote prompt lacks %q:\n%s", want, text)
		}
	}
	for _, part := range strings.Split(token, ".") {
		if strings.Contains(text, part) {
			t.Fatalf("the vote prompt shows the token:\n%s", text)
		}
	}
}
