package cli

import (
	"context"
	"strings"
	"testing"
)

// policy create --time sends the time expression (compiled first, as the
// service compiles it); policy get and list show it, so that a policy active
// only at some times does not read as always active. Against the local service.
func TestPolicyTimeThroughTheCLI(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	code, out, errOut := e.run("", "policy", "create", "--name", "bad time", "--effect", "allow", "--time", "time.now >=")
	wantExit(t, "create with a broken time", code, 1, out, errOut)
	if !strings.Contains(errOut, "time: line 1") {
		t.Errorf("a broken time should be reported at its position:\n%s", errOut)
	}

	timeExpr := "CronSpan('0 9 * * 1-5', '8h', 'Europe/Paris')"
	code, out, errOut = e.run("", "policy", "create", "--name", "office hours", "--effect", "allow",
		"--condition", "activity.type == 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION'", "--time", timeExpr)
	wantExit(t, "create with a time", code, 0, out, errOut)
	id := activityIDFrom(t, out)
	code, out, errOut = e.run("", "activity", "approve", "--yes", "--profile", "carol", id)
	wantExit(t, "approve", code, 0, out, errOut)
	a, err := e.client("alice").GetActivity(ctx, id)
	if err != nil || a.Result.CreatePolicyResult == nil {
		t.Fatalf("policy not created: %+v %v", a, err)
	}
	policyID := a.Result.CreatePolicyResult.PolicyID
	if p, err := e.client("alice").GetPolicy(ctx, policyID); err != nil || p.Time != timeExpr {
		t.Fatalf("stored time = %q (%v), want %q", p.Time, err, timeExpr)
	}

	code, out, errOut = e.run("", "policy", "get", policyID)
	wantExit(t, "get", code, 0, out, errOut)
	if !strings.Contains(out, "time:") || !strings.Contains(out, timeExpr) {
		t.Errorf("get does not show the time:\n%s", out)
	}
	code, out, errOut = e.run("", "policy", "list")
	wantExit(t, "list", code, 0, out, errOut)
	if !strings.Contains(out, "TIME") || !strings.Contains(out, "CronSpan(") {
		t.Errorf("list does not show the time:\n%s", out)
	}
}
