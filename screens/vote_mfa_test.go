package screens

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// Bob's own MFA policy applies to every activity and asks for a PASSKEY; the
// console votes with bob's API key, which cannot meet it. The approve dialog
// names the policy and what it requires, says a service that enforces MFA
// holds the activity as AUTHENTICATORS_NEEDED, and its prediction does not
// promise "runs now" without that caveat.
func TestVoteDialogWarnsOfVotersMfaPolicy(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	alice, bob := d.Client("alice"), d.Client("bob")
	bobID := ""
	for _, m := range d.Info.Members {
		if m.Name == "bob" {
			bobID = m.UserID
		}
	}
	act, err := alice.CreateMfaPolicy(ctx, api.CreateMfaPolicyParams{UserID: bobID, MfaPolicyName: "passkey always", Condition: "true",
		RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthPasskey}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if !api.IsTerminal(act.Status) {
		if act, err = bob.ApproveActivity(ctx, act.Fingerprint); err != nil || act.Status != api.StatusCompleted {
			t.Fatalf("%+v %v", act, err)
		}
	}
	tag, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "mfa-needed", UserIDs: []string{bobID}})
	if err != nil || tag.Status != api.StatusConsensusNeeded {
		t.Fatalf("%+v %v", tag, err)
	}
	h := newHarnessWith(t, bob, bob, theme.Options{Dark: true, NoColor: true}, 0)
	h.selectActivityID(tag.ID)
	h.key("a")
	f := h.frame()
	text := dialogWords(f)
	for _, want := range []string{`your MFA policy "passkey always" applies`, "PASSKEY", "cannot meet it", api.StatusAuthenticatorsNeeded, "local service lets the votes decide"} {
		if !strings.Contains(text, want) {
			t.Errorf("the approve dialog does not say %q of bob's MFA policy:\n%s", want, f)
		}
	}
	if strings.Contains(text, "runs now") && !strings.Contains(text, "your MFA policy may hold it") {
		t.Errorf("the approve dialog predicts the activity runs now without the MFA caveat:\n%s", f)
	}
}

// dialogWords is the text inside a frame's dialog box, its wrapped lines
// joined by single spaces.
func dialogWords(frame string) string {
	var words []string
	for _, l := range strings.Split(frame, "\n") {
		if _, in, ok := strings.Cut(l, "│"); ok {
			in, _, _ = strings.Cut(in, "│")
			words = append(words, strings.Fields(in)...)
		}
	}
	return strings.Join(words, " ")
}
