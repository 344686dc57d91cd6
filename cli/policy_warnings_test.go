package cli

import (
	"strings"
	"testing"
)

// A condition reading a parameter the real service does not expose compiles
// (the local service reads it) but is said, with the documented name: on the
// real service a deny on it never denies.
func TestPolicyCheckWarnsOfParamsTheRealServiceDoesNotExpose(t *testing.T) {
	code, out, errOut := runCLI(t, t.TempDir(), "", "policy", "check", "--condition", "activity.params.apiKeyIds.count() == 1")
	if code != 0 {
		t.Fatalf("policy check refused a condition that compiles: exit %d, %s", code, errOut)
	}
	if !strings.Contains(out, "ok") {
		t.Errorf("stdout %q does not say it compiles", out)
	}
	for _, want := range []string{"warning:", "activity.params.api_key_ids", "MissingField"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr %q does not say %q", errOut, want)
		}
	}
	_, _, errOut = runCLI(t, t.TempDir(), "", "policy", "check", "--condition", "activity.params.api_key_ids.count() == 1")
	if strings.Contains(errOut, "warning") {
		t.Errorf("a documented parameter is warned about: %s", errOut)
	}
}

// A condition comparing activity.action with a value no activity has
// compiles, yet a deny written so never denies: policy check says so and
// names the value meant (audit 212, F1).
func TestPolicyCheckWarnsOfAnActionNoActivityHas(t *testing.T) {
	code, out, errOut := runCLI(t, t.TempDir(), "", "policy", "check", "--condition", "activity.action == 'delete'")
	if code != 0 {
		t.Fatalf("policy check refused a condition that compiles: exit %d, %s", code, errOut)
	}
	if !strings.Contains(out, "ok") {
		t.Errorf("stdout %q does not say it compiles", out)
	}
	for _, want := range []string{"warning:", `"delete" is never an activity.action`, "'DELETE'"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr %q does not say %q", errOut, want)
		}
	}
	_, _, errOut = runCLI(t, t.TempDir(), "", "policy", "check", "--condition", "activity.action == 'DELETE'")
	if strings.Contains(errOut, "warning") {
		t.Errorf("a documented action is warned about: %s", errOut)
	}
}

// A consensus comparing a credential's type with a value no credential has
// compiles, yet never matches: policy check says so at the literal and names
// the types meant; a type the real service's docs list is not warned.
func TestPolicyCheckWarnsOfACredentialTypeNoCredentialHas(t *testing.T) {
	code, out, errOut := runCLI(t, t.TempDir(), "", "policy", "check", "--consensus", "credentials.any(c, c.type == 'API_KEY')")
	if code != 0 {
		t.Fatalf("policy check refused a consensus that compiles: exit %d, %s", code, errOut)
	}
	if !strings.Contains(out, "ok") {
		t.Errorf("stdout %q does not say it compiles", out)
	}
	for _, want := range []string{"warning: consensus: line 1, column 30:", `"API_KEY" is never a credential's type`, "'CREDENTIAL_TYPE_API_KEY_P256'"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr %q does not say %q", errOut, want)
		}
	}
	_, _, errOut = runCLI(t, t.TempDir(), "", "policy", "check", "--consensus", "credentials.any(c, c.type == 'CREDENTIAL_TYPE_OTP_AUTH_KEY_P256')")
	if strings.Contains(errOut, "warning") {
		t.Errorf("a documented credential type is warned about: %s", errOut)
	}
}
