package server_test

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/server/servertest"
)

// A key already registered is refused naming its holder. The name is the
// holder's to choose: quoted and clipped, it cannot go on the sentence
// ("x in this organization; retry later"), nor fill the message.
func TestKeyHolderNamedQuotedAndClipped(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	a, err := keys.NewSoftAuthenticator("")
	if err != nil {
		t.Fatal(err)
	}
	other, _ := keys.Generate(keys.SchemeP256)
	for name, holder := range map[string]string{
		"sentence": "x in this organization; the service is busy, retry later. Also",
		"long":     strings.Repeat("x", 5000),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := d.Server.CreateOrganization(ctx, "holder org", 1, []server.UserSpec{
				{Name: holder, Root: true, Authenticators: []server.AuthenticatorSpec{{Name: "pk", CredentialID: a.CredentialID(), PublicKey: a.PublicKeyHex()}}},
				{Name: "y", Root: true, APIKeys: []server.APIKeySpec{{PublicKey: other.PublicKeyHex()}}},
				{Name: "z", Root: true, APIKeys: []server.APIKeySpec{{PublicKey: a.PublicKeyHex()}}},
			})
			if err == nil {
				t.Fatal("one key was registered as a passkey and as an API key")
			}
			msg := err.Error()
			if !strings.Contains(msg, `of user "`+holder[:20]) {
				t.Errorf("the holder's name is not quoted: %v", err)
			}
			if len(holder) > 300 && strings.Contains(msg, holder[:300]) {
				t.Errorf("a long holder's name is not clipped (%d bytes of message)", len(msg))
			}
		})
	}
}
