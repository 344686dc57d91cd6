package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// proposeNamingPolicy has carol propose a policy whose consensus names the
// demo's operator tag, a tag whose name holds a control character, bob by
// user id, and an id that is neither; it returns the activity id and the
// lines each must be shown with.
func (e *verbEnv) proposeNamingPolicy() (id string, want []string, unknown string) {
	e.t.Helper()
	hostile := e.submitAndApprove("", "tag", "create", "--name", "op\u202es\nx")
	hostileTag := hostile.Result.CreateUserTagResult.UserTagID
	opTag, bob := e.demoTagID("operator"), e.userID("bob")
	unknown = "01a20000-0000-7000-8000-000000000000"
	act, err := e.client("carol").CreatePolicy(context.Background(), api.CreatePolicyParams{PolicyName: "Ops may delete deployments",
		Effect: api.EffectAllow, Condition: "activity.type == 'ACTIVITY_TYPE_DELETE_TVC_DEPLOYMENT'",
		Consensus: "approvers.any(u, u.tags.contains('" + opTag + "')) || approvers.any(u, u.tags.contains('" + hostileTag + "')) || " +
			"approvers.any(u, u.id == '" + bob + "') || approvers.any(u, u.id == '" + unknown + "')"})
	if err != nil {
		e.t.Fatal(err)
	}
	return act.ID, []string{opTag + " is tag operator", hostileTag + ` is tag "op\u202es\nx"`, bob + " is user bob"}, unknown
}

// A policy's consensus names who may approve by tag and user ids: activity
// get names them, so that one naming the "operator" tag does not read like
// one naming "ops", and warns of an id that names neither.
func TestActivityGetNamesThePolicysTagsAndUsers(t *testing.T) {
	e := newVerbEnv(t)
	id, want, unknown := e.proposeNamingPolicy()
	code, out, errOut := e.run("", "activity", "get", id)
	wantExit(t, "activity get", code, 0, out, errOut)
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("activity get lacks %q:\n%s", w, out)
		}
	}
	if !strings.Contains(out, "WARNING: "+unknown+" is not a tag or user") {
		t.Errorf("an id naming no tag or user has no warning:\n%s", out)
	}
	wantOnlyEscaped(t, "activity get", out)

	code, js, errOut := e.run("", "activity", "get", "--json", id)
	wantExit(t, "activity get --json", code, 0, js, errOut)
	if strings.Contains(js, "is tag") {
		t.Errorf("--json is not the service's reply:\n%s", js)
	}
}
