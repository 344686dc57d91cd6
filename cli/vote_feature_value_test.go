package cli

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A WEBAUTHN_ORIGINS value `vigil feature set` refuses, filed raw (the
// service takes it), is shown to the voter with that refusal first: once
// approved it refuses every passkey of the organization.
func TestVotePromptWarnsFirstOfAFeatureValueFeatureSetRefuses(t *testing.T) {
	e := newVerbEnv(t)
	const value = "https://vigil.local/"
	refusal := api.CheckFeatureValue(api.FeatureWebauthnOrigins, value)
	if refusal == nil {
		t.Fatalf("precondition: feature set accepts %q", value)
	}
	act, err := e.client("alice").SetOrganizationFeature(t.Context(), api.SetOrganizationFeatureParams{Name: api.FeatureWebauthnOrigins, Value: value})
	if err != nil {
		t.Fatal(err)
	}
	var buf strings.Builder
	c := proc{stdin: strings.NewReader(""), stdout: &buf, stderr: &buf, getenv: func(string) string { return "" }}
	bob := e.client("bob")
	a, err := getActivityShown(t.Context(), bob, act.ID)
	if err != nil {
		t.Fatal(err)
	}
	details := voteDetails(t.Context(), c, bob, a)
	if !strings.HasPrefix(details, "WARNING") || !strings.Contains(details, api.Sanitize(refusal.Error())) {
		t.Errorf("bob's approve prompt does not warn first with feature set's refusal (%v):\n%s", refusal, details)
	}
}
