package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// proposeWarnedPolicy has carol propose a deny whose condition the real
// service never meets (a lower-case action; a type with a hidden bidi
// control), as 'policy create' warned her; it returns the activity id and
// the warnings each reader must be shown, escaped.
func (e *verbEnv) proposeWarnedPolicy() (id string, want []string) {
	e.t.Helper()
	act, err := e.client("carol").CreatePolicy(context.Background(), api.CreatePolicyParams{PolicyName: "No deletions",
		Effect: api.EffectDeny, Condition: "activity.action == 'delete' || activity.type == 'ACTIVITY_TYPE_X\u202e'"})
	if err != nil {
		e.t.Fatal(err)
	}
	return act.ID, []string{
		`WARNING: column 20: "delete" is never an activity.action, so this comparison is never true (a deny written on it never denies): actions are upper case: 'DELETE'`,
		`WARNING: column 49: "ACTIVITY_TYPE_X\u202e" is never an activity.type`,
	}
}

// activity get warns of what a proposed policy's condition does differently
// on the real service, as the console's activity detail does.
func TestActivityGetWarnsOfThePolicysCondition(t *testing.T) {
	e := newVerbEnv(t)
	id, want := e.proposeWarnedPolicy()
	code, out, errOut := e.run("", "activity", "get", id)
	wantExit(t, "activity get", code, 0, out, errOut)
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("activity get lacks %q:\n%s", w, out)
		}
	}
	wantOnlyEscaped(t, "activity get", out)
}

// approve --yes reads no prompt, so it says the condition's warnings the
// prompt shows on standard error before it votes, escaped, as the
// feature-value warning is.
func TestApproveYesWarnsOfThePolicysCondition(t *testing.T) {
	e := newVerbEnv(t)
	id, want := e.proposeWarnedPolicy()
	code, out, errOut := e.run("", "activity", "approve", "--yes", "--profile", "bob", id)
	wantExit(t, "approve --yes", code, 0, out, errOut)
	for _, w := range want {
		line := "vigil: warning: the policy's condition: " + strings.TrimPrefix(w, "WARNING: ")
		if !strings.Contains(errOut, line) {
			t.Errorf("approve --yes did not warn %q on standard error:\n%s", line, errOut)
		}
	}
	wantOnlyEscaped(t, "approve --yes", errOut)
}
