package cli

import (
	"context"
	"encoding/json"
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

// A flag after a positional argument counts as given twice as well.
func TestRepeatedFlagRefusedWherever(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "keys", "generate", "k1", "--scheme", "p256", "--scheme", "ed25519")
	wantExit(t, "keys generate k1 --scheme p256 --scheme ed25519", code, 2, out, errOut)
	if !strings.Contains(errOut, "--scheme given twice") {
		t.Errorf("the refusal does not name --scheme:\n%s", errOut)
	}
}

// A boolean flag repeated with the same value drops no choice (a script that
// builds its flags from parts: $COMMON --json), so it is taken; given on and
// then off it is refused, in the spellings the user typed, never with values
// the user did not write.
func TestRepeatedBooleanFlag(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "activity", "list", "--json", "--json", "--limit", "1")
	wantExit(t, "activity list --json --json", code, 0, out, errOut)
	if !json.Valid([]byte(out)) {
		t.Errorf("activity list --json --json should print JSON:\n%s", out)
	}
	for _, args := range [][]string{
		{"--json", "--json=false"},
		{"--json=false", "--json"},
	} {
		code, out, errOut := e.run("", append([]string{"activity", "list"}, args...)...)
		wantExit(t, "activity list "+strings.Join(args, " "), code, 2, out, errOut)
		want := "--json given both on and off (" + args[0] + ", then " + args[1] + ")"
		if !strings.Contains(errOut, want) {
			t.Errorf("%v: stderr %q, want %q", args, errOut, want)
		}
		if strings.Contains(errOut, `"true"`) {
			t.Errorf("%v: the refusal quotes a value the user did not type: %s", args, errOut)
		}
	}
}

// Flags documented as repeatable keep collecting every value.
func TestRepeatableFlagsStillCollect(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "activity", "list", "--json",
		"--type", "create_policy", "--type", "create_invitations",
		"--status", "completed", "--status", "failed")
	wantExit(t, "activity list with --type and --status twice", code, 0, out, errOut)
}
