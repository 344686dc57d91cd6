package screens

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/server/servertest"
)

// twinKeyed is a new secp256k1 key whose 33 bytes are a P-256 point too, so
// that one user can hold them as two keys, one of each curve.
func twinKeyed(t *testing.T) *keys.Key {
	t.Helper()
	for {
		k, err := keys.Generate(api.SchemeSecp256k1)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := keys.CanonicalPublicKey(api.CredentialAPIKeyP256, k.PublicKeyHex()); err == nil {
			return k
		}
	}
}

// Dave signs the console with a secp256k1 key and holds its 33 bytes as a
// P-256 key too ("twin key"): the service's two keys, of which only the
// secp256k1 one is the console's. His MFA policy pins one of them. The
// approve dialog and the MFA policies screen name the key of the console's
// curve, whichever of the two is listed first.
func TestEndToEndConsolesOwnKeyIsTheKeyOfItsCurve(t *testing.T) {
	for _, tc := range []struct {
		name       string
		twinFirst  bool
		pinConsole bool
		want, not  []string
	}{
		{name: "twin listed first, console key pinned", twinFirst: true, pinConsole: true, not: []string{"your MFA policy"}},
		{name: "console key listed first, console key pinned", pinConsole: true, not: []string{"your MFA policy"}},
		{name: "twin listed first, twin pinned", twinFirst: true,
			want: []string{"cannot meet it", `"twin key"`, "not this console's key"}, not: []string{"may not meet"}},
		{name: "console key listed first, twin pinned",
			want: []string{"cannot meet it", `"twin key"`, "not this console's key"}, not: []string{"may not meet"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := servertest.StartDemo(t)
			ctx := t.Context()
			alice := d.Client("alice")
			// The service lists a user's keys by creation, then by id: two
			// keys made in one call may share an instant and come in either
			// order. Each is made in the order the case asks for, and dave is
			// made again, with a new key, until his are listed in it.
			var own *keys.Key
			var dave *api.User
			for attempt := 1; dave == nil; attempt++ {
				if attempt > 64 {
					t.Fatal("set-up: dave's keys were never listed in the order wanted")
				}
				own = twinKeyed(t)
				specs := []server.APIKeySpec{
					{Name: "console key", PublicKey: own.PublicKeyHex(), CredentialType: api.CredentialAPIKeySecp256k1},
					{Name: "twin key", PublicKey: own.PublicKeyHex(), CredentialType: api.CredentialAPIKeyP256},
				}
				if tc.twinFirst {
					specs[0], specs[1] = specs[1], specs[0]
				}
				daveID, err := d.Server.CreateUser(ctx, d.Info.OrganizationID, server.UserSpec{Name: fmt.Sprintf("dave-%d", attempt), Email: fmt.Sprintf("dave%d@example.com", attempt),
					APIKeys: specs})
				if err != nil {
					t.Fatal(err)
				}
				u, err := alice.GetUser(ctx, daveID)
				if err != nil || len(u.APIKeys) != 2 {
					t.Fatalf("set-up: dave: %+v %v", u, err)
				}
				if (u.APIKeys[0].APIKeyName == "twin key") == tc.twinFirst {
					dave = u
				}
			}
			daveID := dave.UserID
			pinName := map[bool]string{true: "console key", false: "twin key"}[tc.pinConsole]
			pin := ""
			for _, k := range dave.APIKeys {
				if k.APIKeyName == pinName {
					pin = k.APIKeyID
				}
			}
			tag := pinKeyAndProposeTag(t, d, daveID, pin)

			c, err := api.NewClient(d.URL, d.Info.OrganizationID, own)
			if err != nil {
				t.Fatal(err)
			}
			h := newSchemedHarness(t, c, own.Scheme(), own.PublicKeyHex())
			h.selectActivityID(tag.ID)
			checkApproveDialogSays(t, h, tc.want, tc.not)

			h.key("esc")
			h.key("6")
			f := h.frame()
			tail := "…" + pin[len(pin)-8:]
			pinText := `"twin key" ` + tail + ", not this console's key)"
			if tc.pinConsole {
				pinText = `"console key" ` + tail + ", this console's key)"
			}
			if !strings.Contains(f, pinText) {
				t.Errorf("the MFA policies screen does not say %q:\n%s", pinText, f)
			}
		})
	}
}
