package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// `mfa status --user U` for a member who has not voted yet says so, and
// names the MFA policy that will apply to their vote: the very one the
// service reports once they have voted. It never reads "no MFA policy
// applies", which a reviewer would take for "U needs no MFA here".
func TestMfaStatusOfAMemberWhoHasNotVotedNamesThePolicyThatWillApply(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	alice := e.userID("alice")
	a, err := e.client("bob").CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "mfa probe", Effect: api.EffectAllow, Notes: "n"})
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := e.run("", "mfa", "status", "--user", alice, a.ID)
	wantExit(t, "mfa status", code, 0, out, errOut)

	if _, err := e.client("alice").ApproveActivity(ctx, a.Fingerprint); err != nil {
		t.Fatal(err)
	}
	after, err := e.client("alice").GetMfaStatus(ctx, a.ID, alice)
	if err != nil || len(after) != 1 {
		t.Fatalf("the service, once alice voted: %+v %v", after, err)
	}
	if !strings.Contains(errOut, alice+" has not voted on this activity") || !strings.Contains(errOut, after[0].MfaPolicyID) {
		t.Errorf("before alice's vote the CLI says:\n%s\nwant that she has not voted, and that MFA policy %s would apply", errOut, after[0].MfaPolicyID)
	}
	if strings.Contains(errOut, "no MFA policy applies") {
		t.Errorf("the CLI says no MFA policy applies to a member whose policy does:\n%s", errOut)
	}
}
