package cli

import (
	"bytes"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// FEATURE_NAME_SWAP_CONFIG and FEATURE_NAME_EARN_CONFIG, which the official
// client lists and SPEC.md does not: 'feature set' and the local service
// refuse them saying why and what to do instead.
func TestSwapAndEarnConfigRefusalsSayWhatToDo(t *testing.T) {
	e := newVerbEnv(t)
	for _, name := range []string{"FEATURE_NAME_SWAP_CONFIG", "FEATURE_NAME_EARN_CONFIG"} {
		short := strings.ToLower(strings.TrimPrefix(name, "FEATURE_NAME_"))
		code, out, errOut := e.run("", "feature", "set", "--value", "enabled", short)
		wantExit(t, "feature set "+short, code, exitUsage, out, errOut)
		for _, want := range []string{name, "SPEC.md", "set it with the real service's own tools", "or use one of root_user_email_recovery"} {
			if !strings.Contains(errOut, want) {
				t.Errorf("feature set %s: %q does not say %q", short, errOut, want)
			}
		}
		// Sent as is, past vigil's own checks: the service refuses it alike.
		code, out, errOut = e.run("", "request", "--path", "/public/v1/submit/set_organization_feature",
			"--body", `{"type":"ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE","timestampMs":"`+strconv.FormatInt(time.Now().UnixMilli(), 10)+`","organizationId":"`+e.demo.Info.OrganizationID+`","parameters":{"name":"`+name+`","value":"enabled"}}`)
		if code == exitOK {
			t.Fatalf("the service took %s:\n%s", name, out)
		}
		for _, want := range []string{name, "SPEC.md", "set it with the real service's own tools"} {
			if !strings.Contains(out+errOut, want) {
				t.Errorf("the service's refusal of %s does not say %q:\n%s\n%s", name, want, out, errOut)
			}
		}
	}
}

// A real service whose organization has FEATURE_NAME_SWAP_CONFIG and
// FEATURE_NAME_EARN_CONFIG set: 'feature list' shows both with their values.
func TestFeatureListShowsSwapAndEarnConfig(t *testing.T) {
	e := newVerbEnv(t)
	proxy := e.demo.Rewriting(func(op string, _, reply []byte) []byte {
		reply = bytes.ReplaceAll(reply, []byte(`{"name":"FEATURE_NAME_AUTH_PROXY","value":"enabled"}`), []byte(`{"name":"FEATURE_NAME_SWAP_CONFIG","value":"swap-v1"}`))
		return bytes.ReplaceAll(reply, []byte(`{"name":"FEATURE_NAME_OTP_EMAIL_AUTH","value":"enabled"}`), []byte(`{"name":"FEATURE_NAME_EARN_CONFIG","value":"earn-v1"}`))
	})
	env := map[string]string{"VIGIL_CONFIG": e.configVia(proxy, filepath.Join(t.TempDir(), "proxy.toml"))}
	code, out, errOut := runVigil(t, env, "", "feature", "list")
	wantExit(t, "feature list", code, exitOK, out, errOut)
	for _, want := range []string{"FEATURE_NAME_SWAP_CONFIG", `"swap-v1"`, "FEATURE_NAME_EARN_CONFIG", `"earn-v1"`, "FEATURE_NAME_WEBAUTHN_ORIGINS"} {
		if !strings.Contains(out, want) {
			t.Errorf("feature list does not show %s:\n%s", want, out)
		}
	}
}
