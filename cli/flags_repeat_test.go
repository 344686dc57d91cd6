package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A single-value flag given twice is refused, naming both values: taking the
// last would submit an ALLOW policy the user wrote as DENY (a script's
// argument builder appending a default after the user's choice).
func TestPolicyCreateRefusesEffectGivenTwice(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "policy", "create", "--name", "no deletes", "--effect", "deny",
		"--condition", "activity.action == 'DELETE'", "--notes", "", "--effect", "allow")
	wantExit(t, "policy create --effect deny … --effect allow", code, 2, out, errOut)
	for _, want := range []string{"--effect", `"deny"`, `"allow"`, "once"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("the refusal does not say %s:\n%s", want, errOut)
		}
	}
	acts, err := e.client("alice").ListActivities(context.Background(), api.ListActivitiesOptions{Types: []string{api.TypeCreatePolicyV3}})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range acts {
		if in := a.Intent.CreatePolicyIntentV3; in != nil && in.PolicyName == "no deletes" {
			t.Errorf("a policy was submitted anyway: %+v", in)
		}
	}
}

// A boolean flag given twice is refused too, and a flag after a positional
// argument counts as well.
func TestRepeatedFlagRefusedWherever(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "keys", "generate", "k1", "--scheme", "p256", "--scheme", "ed25519")
	wantExit(t, "keys generate k1 --scheme p256 --scheme ed25519", code, 2, out, errOut)
	if !strings.Contains(errOut, "--scheme given twice") {
		t.Errorf("the refusal does not name --scheme:\n%s", errOut)
	}
	code, out, errOut = e.run("", "activity", "list", "--json", "--json")
	wantExit(t, "activity list --json --json", code, 2, out, errOut)
}

// Flags documented as repeatable keep collecting every value.
func TestRepeatableFlagsStillCollect(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "activity", "list", "--json",
		"--type", "create_policy", "--type", "create_invitations",
		"--status", "completed", "--status", "failed")
	wantExit(t, "activity list with --type and --status twice", code, 0, out, errOut)
}
