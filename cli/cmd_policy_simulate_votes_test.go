package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// The service decides an activity at its submission too, before the root
// quorum's second approval bypasses every policy: a deny on create_policy
// simulated over a create_policy the root quorum completed must say it FAILS
// at submission and locks the organization out, and warn that such a deny
// cannot be undone (no operation deletes a policy). Deciding only the last
// approval said ALLOW, locks out: no.
func TestPolicySimulateSaysDenyFailsAtSubmission(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	a, err := e.client("alice").CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "wallets", Effect: api.EffectAllow, Condition: "activity.resource == 'WALLET'"})
	if err != nil {
		t.Fatal(err)
	}
	if a, err = e.client("bob").ApproveActivity(ctx, a.Fingerprint); err != nil || a.Status != api.StatusCompleted {
		t.Fatalf("the root quorum creates a policy: %v (%v)", err, a)
	}
	code, out, errOut := e.run("", "policy", "simulate", "--activity", a.ID, "--effect", "deny", "--condition", "activity.resource == 'POLICY'")
	wantExit(t, "deny on create_policy", code, 0, out, errOut)
	for _, want := range []string{"today:      OUTCOME_ALLOW", "with draft: OUTCOME_DENY_EXPLICIT — FAILS at submission:", "locks out:  YES"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "warning: this deny's condition can match create_policy") || !strings.Contains(errOut, "cannot be undone") {
		t.Errorf("no warning that the deny cannot be undone:\n%s", errOut)
	}
	// policy check says it too when told the effect, and policy create
	// before it submits.
	code, out, errOut = e.run("", "policy", "check", "--effect", "deny", "--condition", "activity.resource == 'POLICY'")
	wantExit(t, "check --effect deny", code, 0, out, errOut)
	if !strings.Contains(errOut, "cannot be undone") {
		t.Errorf("policy check --effect deny: no warning:\n%s", errOut)
	}
	code, out, errOut = e.run("", "policy", "create", "--name", "no policies", "--effect", "deny", "--condition", "activity.resource == 'POLICY'")
	wantExit(t, "create", code, 0, out, errOut)
	if !strings.Contains(errOut, "the root quorum needs 2 approvals") || !strings.Contains(errOut, "cannot be undone") {
		t.Errorf("policy create: no warning:\n%s", errOut)
	}
}

// vigil policy simulate takes the draft's --time as policy create does: a
// deny whose time is false when the service decided is skipped, and locks
// nothing out; without it, the same deny does.
func TestPolicySimulateTakesTheDraftsTime(t *testing.T) {
	e := newVerbEnv(t)
	pending, err := e.client("alice").ListActivities(context.Background(), api.ListActivitiesOptions{Statuses: []string{api.StatusConsensusNeeded},
		Types: []string{api.TypeDeleteAPIKeys}, Limit: 10})
	if err != nil || len(pending) != 1 {
		t.Fatalf("the demo has one pending delete_api_keys: %v %v", pending, err)
	}
	args := []string{"policy", "simulate", "--activity", pending[0].ID, "--effect", "deny", "--condition", "activity.resource == 'CREDENTIAL'"}
	code, out, errOut := e.run("", args...)
	wantExit(t, "always active", code, 0, out, errOut)
	if !strings.Contains(out, "locks out:  YES") {
		t.Fatalf("the deny without a time does not lock it out: the test's premise is gone:\n%s", out)
	}
	code, out, errOut = e.run("", append(args, "--time", "false")...)
	wantExit(t, "--time false", code, 0, out, errOut)
	if !strings.Contains(out, "locks out:  no") || !strings.Contains(out, "TIME_INACTIVE") {
		t.Errorf("a deny inactive at the activity's times still locks it out:\n%s", out)
	}
	code, out, errOut = e.run("", append(args, "--time", "1 +")...)
	if code == 0 || !strings.Contains(errOut, "time") {
		t.Errorf("a time that does not compile: exit %d\n%s%s", code, out, errOut)
	}
}
