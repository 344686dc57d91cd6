package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// The console's create-policy confirm flags an id in the condition or
// consensus that is neither a tag nor a user of the organization: a mistyped
// tag id makes a consensus no approver can ever meet. 'policy create' (and
// 'mfa create', whose condition may name ids too) warn the same way before
// sending, on standard error: with --json standard output is still only the
// activity. An id that is the organization's tag or user gives no warning.
// Only ids where a tag or user id is expected are judged
// (TestPolicyCreateWarnsOnlyWhereATagOrUserIDIsExpected).
func TestPolicyCreateWarnsOfAnUnknownIDBeforeSubmitting(t *testing.T) {
	e := newVerbEnv(t)
	typo := "01a2c0de-0000-7000-8000-000000000000"
	tag, user := e.demoTagID("operator"), e.userID("bob")
	code, out, errOut := e.run("", "policy", "create", "--json", "--name", "ops approve", "--effect", "allow",
		"--condition", "activity.action == 'DELETE' && activity.resource != '"+user+"'",
		"--consensus", "approvers.any(user, user.tags.contains('"+typo+"')) && approvers.any(user, user.tags.contains('"+tag+"'))")
	wantExit(t, "policy create", code, 0, out, errOut)
	if !strings.Contains(errOut, "warning: "+typo+" is not a tag or user") {
		t.Errorf("policy create with a consensus naming %s, no tag or user of the organization, gave no warning before submitting (the console's confirm does)\nstderr: %s", typo, strings.TrimSpace(errOut))
	}
	for _, known := range []string{tag, user} {
		// (the condition's `activity.resource != '<user id>'` is warned of as
		// no resource, "warning: condition: …"; that is not an id warning)
		if strings.Contains(errOut, "warning: "+known) {
			t.Errorf("%s is the organization's, yet standard error names it:\n%s", known, errOut)
		}
	}
	var got api.ActivityResponse
	if err := json.Unmarshal([]byte(out), &got); err != nil || got.Activity.Type != api.TypeCreatePolicyV3 {
		t.Errorf("with --json, standard output is not only the activity (%v):\n%s", err, out)
	}

	code, out, errOut = e.run("", "mfa", "create", "--user", "operator", "--name", "n", "--step", "passkey", "--order", "0",
		"--condition", "activity.params.user_id == '"+typo+"'")
	wantExit(t, "mfa create", code, 0, out, errOut)
	if !strings.Contains(errOut, "warning: "+typo+" is not a tag or user") {
		t.Errorf("mfa create with a condition naming %s gave no warning before submitting\nstderr: %s", typo, strings.TrimSpace(errOut))
	}
}
