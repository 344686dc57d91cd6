package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// policy check takes empty expressions (as policy create does), and its
// verdict still says what each given one means instead of naming nothing.
func TestPolicyCheckEmptyExpressionSaysWhatItMeans(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"--condition", ""}, []string{"an empty condition (applies to every activity)"}},
		{[]string{"--time", ""}, []string{"an empty time (always active)"}},
		{[]string{"--condition", "", "--consensus", ""}, []string{"an empty condition (applies to every activity)", "an empty consensus (requires no approvals)"}},
		{[]string{"--condition", "", "--consensus", "approvers.count() >= 2"}, []string{"the consensus compiles", "an empty condition (applies to every activity)"}},
	} {
		code, out, errOut := runVigil(t, nil, "", append([]string{"policy", "check"}, tc.args...)...)
		wantExit(t, strings.Join(tc.args, " "), code, 0, out, errOut)
		if !strings.HasPrefix(out, "ok: ") || strings.Contains(out, "the  ") {
			t.Errorf("%q: verdict %q", tc.args, out)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%q: verdict %q does not say %q", tc.args, out, w)
			}
		}
	}
}

func TestPolicyCheckOffline(t *testing.T) {
	// No config, no network: runVigil's environment is empty.
	code, out, errOut := runVigil(t, nil, "", "policy", "check", "--condition", "activity.type == 'ACTIVITY_TYPE_CREATE_POLICY_V3'", "--consensus", "approvers.count() >= 2")
	wantExit(t, "valid", code, 0, out, errOut)
	if !strings.Contains(out, "ok: the condition and the consensus compile") {
		t.Errorf("valid: %s", out)
	}
	// Only what was given is said to compile, and the documented language is
	// accepted: a transaction keyword with a value beyond 64 bits.
	code, out, errOut = runVigil(t, nil, "", "policy", "check", "--condition", "eth.tx.value < 1000000000000000000000")
	wantExit(t, "condition only", code, 0, out, errOut)
	if strings.TrimSpace(out) != "ok: the condition compiles" {
		t.Errorf("condition only: %q", out)
	}
	code, out, errOut = runVigil(t, nil, "", "policy", "check", "--condition", "time.now > 3")
	wantExit(t, "time in a condition", code, 1, out, errOut)
	if !strings.Contains(errOut, "only available in the time expression") {
		t.Errorf("time in a condition: %s", errOut)
	}
	code, out, errOut = runVigil(t, nil, "", "policy", "check", "--condition", "activity.typo == 'X'")
	wantExit(t, "bad condition", code, 1, out, errOut)
	if !strings.Contains(errOut, "condition: line 1, column 9") || !strings.Contains(errOut, "  activity.typo == 'X'\n          ^") {
		t.Errorf("the error should give the position and mark it:\n%s", errOut)
	}
	code, out, errOut = runVigil(t, nil, "", "policy", "check", "--condition", "true", "--consensus", "approvers.count() >=")
	wantExit(t, "bad consensus", code, 1, out, errOut)
	if !strings.Contains(errOut, "consensus: line 1") {
		t.Errorf("consensus error: %s", errOut)
	}
	checkUsageErrors(t, []usageCase{
		{[]string{"policy", "check"}, "policy check needs --condition EXPR, --consensus EXPR and/or --time EXPR"},
		{[]string{"policy"}, "policy needs a subcommand"},
		{[]string{"policy", "simulate"}, "--activity ID is required"},
		{[]string{"policy", "simulate", "--activity", "x"}, `--effect "": use allow or deny`},
		{[]string{"policy", "frobnicate"}, `unknown policy subcommand "frobnicate"`},
		{[]string{"policy", "get"}, "policy get takes one argument, the policy id"},
		{[]string{"policy", "create", "--effect", "allow"}, "--name is required"},
		{[]string{"policy", "create", "--name", "x", "--effect", "maybe"}, `--effect "maybe": use allow or deny`},
		{[]string{"policy", "create", "--name", "x"}, `--effect "": use allow or deny`},
	})
}

func TestPolicyCreateListGetEndToEnd(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	count := func() int {
		acts, err := e.client("alice").ListActivities(ctx, api.ListActivitiesOptions{Types: []string{api.TypeCreatePolicyV3}, Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		return len(acts)
	}
	before := count()
	// A condition that does not compile is refused before sending.
	code, out, errOut := e.run("", "policy", "create", "--name", "broken", "--effect", "deny", "--condition", "activity.type ==")
	wantExit(t, "broken", code, 1, out, errOut)
	if !strings.Contains(errOut, "condition: line 1") || count() != before {
		t.Errorf("broken policy: %s (activities %d -> %d)", errOut, before, count())
	}
	// A read-only profile cannot create.
	code, out, errOut = e.run("", "policy", "create", "--profile", "readonly", "--name", "ro", "--effect", "allow")
	wantExit(t, "read-only", code, 1, out, errOut)
	if !strings.Contains(errOut, "read-only") || count() != before {
		t.Errorf("read-only create: %s", errOut)
	}

	name := "Auditors read sessions"
	cond := "activity.type == 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION' && 'a' < 'b'"
	code, out, errOut = e.run("", "policy", "create", "--name", name, "--effect", "allow", "--condition", cond, "--notes", "by the CLI")
	wantExit(t, "create", code, 0, out, errOut)
	id := activityIDFrom(t, out)
	code, out, errOut = e.run("", "activity", "approve", "--yes", "--profile", "carol", id)
	wantExit(t, "approve", code, 0, out, errOut)
	a, err := e.client("alice").GetActivity(ctx, id)
	if err != nil || a.Result.CreatePolicyResult == nil {
		t.Fatalf("policy not created: %+v %v", a, err)
	}
	policyID := a.Result.CreatePolicyResult.PolicyID

	code, out, errOut = e.run("", "policy", "list")
	wantExit(t, "list", code, 0, out, errOut)
	if !strings.Contains(out, policyID) || !strings.Contains(out, name) {
		t.Errorf("list lacks the new policy:\n%s", out)
	}
	code, out, errOut = e.run("", "policy", "get", "--json", policyID)
	wantExit(t, "get --json", code, 0, out, errOut)
	var got api.GetPolicyResponse
	if err := json.Unmarshal([]byte(out), &got); err != nil || got.Policy.Condition != cond || got.Policy.Notes != "by the CLI" {
		t.Errorf("get --json: %v %+v", err, got.Policy)
	}
	code, out, errOut = e.run("", "policy", "get", policyID)
	wantExit(t, "get", code, 0, out, errOut)
	if !strings.Contains(out, "condition: "+cond) {
		t.Errorf("get:\n%s", out)
	}
}
