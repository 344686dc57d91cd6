package screens

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// The detail of another member's OAuth sign-in does not draw the OIDC token
// the service repeats in its intent, and says where it was. Against the
// local service.
func TestEndToEndOauthDetailHidesTheOIDCToken(t *testing.T) {
	d := servertest.StartDemo(t)
	target, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	targetHex := hex.EncodeToString(target.PublicKey().Bytes())
	nonce := sha256.Sum256([]byte(targetHex))
	token, err := d.Server.MintDemoOIDCToken(d.Info.OrganizationID, "carol", hex.EncodeToString(nonce[:]))
	if err != nil {
		t.Fatal(err)
	}
	act, err := d.Client("carol").OAuth(context.Background(), api.OauthParams{OidcToken: token, TargetPublicKey: targetHex})
	if err != nil || act.Status != api.StatusCompleted {
		t.Fatalf("carol's sign-in: %v %+v", err, act)
	}
	alice := d.Client("alice")
	seen, err := alice.GetActivity(context.Background(), act.ID)
	if err != nil || seen.Intent.OauthIntent.OidcToken != token {
		t.Fatalf("the service no longer repeats the token (%v); this test checks the console hides it", err)
	}
	h := newHarnessWith(t, alice, alice, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(ShowActivityMsg{ID: seen.ID, Activity: seen})
	text := h.detailText()
	flat := strings.Join(strings.Fields(text), "")
	for _, part := range strings.Split(token, ".") {
		if strings.Contains(flat, part) {
			t.Fatalf("the detail draws the OIDC token:\n%s", text)
		}
	}
	if !strings.Contains(text, "hidden: a") {
		t.Errorf("the detail does not say the token is hidden:\n%s", text)
	}
}
