package cli

import (
	"strings"
	"testing"
)

// A flag given an empty value, as from an unset shell variable
// (--after "$LAST"), is a usage error naming the flag, never taken as "not
// given": that would page from the top again (a paging loop restarts
// forever), list every user's MFA policies or every voter, or read standard
// input as the body to stamp and send.
func TestEmptyFlagValuesAreRefused(t *testing.T) {
	e := newVerbEnv(t)
	body := `{"organizationId":"` + e.demo.Info.OrganizationID + `"}`
	for _, tc := range []struct {
		flag string
		args []string
	}{
		{"after", []string{"activity", "list", "--after", ""}},
		{"before", []string{"activity", "list", "--before", ""}},
		{"user", []string{"mfa", "list", "--user", ""}},
		{"user", []string{"mfa", "status", "--user", "", "0192a6c4-0000-7000-8000-000000000000"}},
		{"body-file", []string{"request", "--path", "/public/v1/query/whoami", "--body-file", ""}},
		{"body-file", []string{"stamp", "--key", "alice", "--body-file", ""}},
		{"file", []string{"contract", "create", "--address", "0x6B17", "--type", "ethereum", "--label", "DAI", "--file", ""}},
		{"profile", []string{"activity", "list", "--profile", ""}},
		{"config", []string{"policy", "list", "--config", ""}},
		{"name", []string{"policy", "simulate", "--activity", "X", "--effect", "deny", "--name", ""}},
	} {
		code, out, errOut := e.run(body, tc.args...)
		if code != 2 {
			t.Errorf("%q: exit %d, want 2 (a usage error naming the empty value)\nstdout: %.200s\nstderr: %s", tc.args, code, out, errOut)
			continue
		}
		if !strings.Contains(errOut, "--"+tc.flag+` ""`) || !strings.Contains(errOut, "leave the flag out") {
			t.Errorf("%q: the error does not name --%s and what to do:\n%s", tc.args, tc.flag, errOut)
		}
		if out != "" {
			t.Errorf("%q: printed %q on standard output; nothing should have been done", tc.args, out)
		}
	}
	code, _, errOut := e.run("", "request", "--path", "/public/v1/query/whoami", "--body-file", "")
	if code != 2 || !strings.Contains(errOut, "- for standard input") {
		t.Errorf("request --body-file '': exit %d; the error should say - reads standard input:\n%s", code, errOut)
	}
}

// Where the docs give "" a meaning it is still taken: an empty condition
// applies to every activity (policy check, create and simulate).
func TestEmptyFlagValuesStillMeanSomethingWhereDocumented(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "policy", "check", "--condition", "", "--consensus", "approvers.count() >= 1", "--time", "")
	wantExit(t, "policy check --condition ''", code, 0, out, errOut)
}
