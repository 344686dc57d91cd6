package screens

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// The console signs as dave, who has two API keys: the console's and a CI
// key. Dave's MFA policy asks for one API key, pinned. The approve dialog
// knows which key the console signs with (its public key among dave's keys,
// as the organization's load read them): pinned to the console's key, one
// vote meets the policy and nothing is said; pinned to the CI key, it
// cannot, and the step says the key is not this console's. Only when the
// console does not know its key does it say "may not meet it".
func TestEndToEndVoteDialogKnowsTheConsolesOwnKey(t *testing.T) {
	for _, tc := range []struct {
		name        string
		pinConsole  bool // pin the console's key, else the CI key
		knowsItsKey bool // the console is told its public key
		want        []string
		not         []string
	}{
		{name: "pinned to the console's key", pinConsole: true, knowsItsKey: true, not: []string{"your MFA policy"}},
		{name: "pinned to another key", knowsItsKey: true,
			want: []string{"cannot meet it", `"ci key"`, "not this console's key"}, not: []string{"may not meet"}},
		{name: "own key unknown", pinConsole: true,
			want: []string{"may not meet it"}, not: []string{"this console's key)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := servertest.StartDemo(t)
			ctx := t.Context()
			own, err := keys.Generate("p256")
			if err != nil {
				t.Fatal(err)
			}
			ci, err := keys.Generate("p256")
			if err != nil {
				t.Fatal(err)
			}
			daveID, err := d.Server.CreateUser(ctx, d.Info.OrganizationID, server.UserSpec{Name: "dave", Email: "dave@example.com",
				APIKeys: []server.APIKeySpec{{Name: "console key", PublicKey: own.PublicKeyHex()}, {Name: "ci key", PublicKey: ci.PublicKeyHex()}}})
			if err != nil {
				t.Fatal(err)
			}
			alice := d.Client("alice")
			dave, err := alice.GetUser(ctx, daveID)
			if err != nil {
				t.Fatal(err)
			}
			pin := ""
			for _, k := range dave.APIKeys {
				if k.HasPublicKey("", own.PublicKeyHex()) == tc.pinConsole {
					pin = k.APIKeyID
				}
			}
			tag := pinKeyAndProposeTag(t, d, daveID, pin)

			c, err := api.NewClient(d.URL, d.Info.OrganizationID, own)
			if err != nil {
				t.Fatal(err)
			}
			pub := ""
			if tc.knowsItsKey {
				pub = own.PublicKeyHex()
			}
			h := newKeyedHarness(t, c, pub)
			h.selectActivityID(tag.ID)
			checkApproveDialogSays(t, h, tc.want, tc.not)

			// The MFA policies screen names the pin the same way.
			h.key("esc")
			h.key("6")
			f := h.frame()
			tail := "…" + pin[len(pin)-8:] // the list shows the end of an id
			pinText := `"ci key" ` + tail + ", not this console's key)"
			if tc.pinConsole {
				pinText = `"console key" ` + tail + ", this console's key)"
			}
			if says := strings.Contains(f, pinText); says != tc.knowsItsKey {
				t.Errorf("the MFA policies screen says %q: %v, want %v:\n%s", pinText, says, tc.knowsItsKey, f)
			}
		})
	}
}

// pinKeyAndProposeTag gives dave (daveID) an MFA policy asking for his API
// key pin, approved by bob when it waits for votes, then has alice propose a
// user tag on dave that waits for votes: the activity the tests vote on.
func pinKeyAndProposeTag(t *testing.T, d *servertest.Demo, daveID, pin string) *api.Activity {
	t.Helper()
	ctx := t.Context()
	alice := d.Client("alice")
	act, err := alice.CreateMfaPolicy(ctx, api.CreateMfaPolicyParams{UserID: daveID, MfaPolicyName: "one key", Condition: "true",
		RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthAPIKey, ID: pin}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if !api.IsTerminal(act.Status) {
		if act, err = d.Client("bob").ApproveActivity(ctx, act.Fingerprint); err != nil || act.Status != api.StatusCompleted {
			t.Fatalf("%+v %v", act, err)
		}
	}
	tag, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "needs-votes", UserIDs: []string{daveID}})
	if err != nil || tag.Status != api.StatusConsensusNeeded {
		t.Fatalf("%+v %v", tag, err)
	}
	return tag
}

// checkApproveDialogSays opens the approve dialog on the selected activity
// (a) and fails for each of want it does not say and each of not it says.
func checkApproveDialogSays(t *testing.T, h *harness, want, not []string) {
	t.Helper()
	h.key("a")
	f := h.frame()
	text := dialogWords(f)
	if !strings.Contains(text, "approve") {
		t.Fatalf("set-up: no approve dialog:\n%s", f)
	}
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("the approve dialog does not say %q:\n%s", w, f)
		}
	}
	for _, w := range not {
		if strings.Contains(text, w) {
			t.Errorf("the approve dialog says %q:\n%s", w, f)
		}
	}
}

// newKeyedHarness is newHarnessWith for a console told the public key it
// signs with ("" = not told).
func newKeyedHarness(t *testing.T, c *api.Client, publicKey string) *harness {
	t.Helper()
	return newSchemedHarness(t, c, "", publicKey)
}

// newSchemedHarness is newKeyedHarness for a console told its key's scheme
// too ("" = not told).
func newSchemedHarness(t *testing.T, c *api.Client, scheme, publicKey string) *harness {
	t.Helper()
	r := NewRoot(Options{Reader: c, Submitter: c, Profile: "demo", Theme: theme.Options{Dark: true, NoColor: true},
		PublicKey: publicKey, Scheme: scheme, Now: func() time.Time { return testNow }, Static: true,
		Tick: func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }})
	r.common.Timeout = 30 * time.Second
	h := &harness{t: t, root: r}
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	h.run(r.Init())
	return h
}
