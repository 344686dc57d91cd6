package cli

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// `approve --yes` of a set_organization_feature whose value vigil's own
// `feature set` refuses (a WEBAUTHN_ORIGINS that refuses every passkey once
// set) warns on standard error, as the prompt would have first, before the
// vote is sent: --yes reads no prompt.
func TestApproveYesWarnsOfAFeatureValueFeatureSetRefuses(t *testing.T) {
	e := newVerbEnv(t)
	const value = "https://vigil.local/"
	want := api.FeatureValueWarning(api.FeatureWebauthnOrigins, value)
	if want == "" {
		t.Fatalf("precondition: feature set accepts %q", value)
	}
	act, err := e.client("alice").SetOrganizationFeature(t.Context(), api.SetOrganizationFeatureParams{Name: api.FeatureWebauthnOrigins, Value: value})
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := e.run("", "activity", "approve", "--yes", "--profile", "bob", act.ID)
	if code != 0 {
		t.Fatalf("approve: exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "vigil: warning: "+strings.TrimPrefix(want, "WARNING: ")) {
		t.Errorf("approve --yes sent an approval of a value feature set refuses without its warning:\nstdout:\n%s\nstderr:\n%s", out, errOut)
	}
}
