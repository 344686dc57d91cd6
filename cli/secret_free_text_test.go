package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// Private keys as they get pasted: 64 hex digits, an Ed25519 key in
// base64url, a PKCS#8 PEM. Throwaway keys, made for this test.
var pastedKeys = map[string]string{
	"64 hex digits": "7fd4d14adaee3004c7864d901064f664be6e8be00ad206476763ac4187fe6bc5",
	"base64url":     "iH7KPILnGmjk-MDF6Y9MfU_HqvsMYkDUUDItviZQTo0",
	"PEM": `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgFxHfExcKkshV5nrx
HovPrz7xBKkv3Q8dyII9pTzGLjuhRANCAAQgtwJZXU2Q3mVUSvaiQxYcaQasxES1
66grSurViv0d0+0LCtW/wirTg2kp1sAtn7+SisfmN1ok/B5w8lRBdSC6
-----END PRIVATE KEY-----`,
}

// A private key pasted into a name or notes would be recorded in the
// activity, shown to every member and kept for good, and echoed on
// standard output: every verb that sends one refuses it as a usage error,
// without showing it, and sends nothing.
func TestVerbsRefusePrivateKeyInFreeText(t *testing.T) {
	e := newVerbEnv(t)
	abi := filepath.Join(t.TempDir(), "abi.json")
	if err := os.WriteFile(abi, []byte("[]"), 0o600); err != nil {
		t.Fatal(err)
	}
	types := []string{api.TypeCreateUserTag, api.TypeCreatePolicyV3, api.TypeCreateInvitations, api.TypeCreateMfaPolicy, api.TypeCreateSmartContractInterface}
	before := map[string]int{}
	for _, typ := range types {
		before[typ] = e.countActivities(t, typ)
	}
	for kind, key := range pastedKeys {
		for _, args := range [][]string{
			{"tag", "create", "--name", key},
			{"policy", "create", "--name", key, "--effect", "allow"},
			{"policy", "create", "--name", "p", "--effect", "allow", "--notes", key},
			{"policy", "create", "--name", "p", "--effect", "allow", "--notes", "the key was " + key + ", oops"},
			{"invitation", "create", "--name", key, "--email", "dave@example.com", "--access", "web"},
			{"mfa", "create", "--user", "alice", "--name", key, "--condition", "true", "--order", "1", "--step", "api_key"},
			{"mfa", "create", "--user", "alice", "--name", "m", "--condition", "true", "--order", "1", "--step", "api_key", "--notes", key},
			{"contract", "create", "--address", "0xabc", "--type", "ethereum", "--label", key, "--file", abi},
			{"contract", "create", "--address", "0xabc", "--type", "ethereum", "--label", "L", "--notes", key, "--file", abi},
			{"login", "oauth", "--provider-token", "-", "--key-name", key},
			{"request", "--path", "/public/v1/submit/create_user_tag", "--body", `{"type":"ACTIVITY_TYPE_CREATE_USER_TAG","parameters":{"userTagName":` + quoteJSON(key) + `,"userIds":[]}}`},
			{"request", "--stamp-only", "--path", "/public/v1/submit/create_policy_v3", "--body", `{"parameters":{"policyName":"p","notes":` + quoteJSON(key) + `}}`},
		} {
			what := strings.Join(args[:2], " ") + " with " + kind
			code, out, errOut := e.run("", args...)
			if code != 2 || !strings.Contains(errOut, "look like a private key") || !strings.Contains(errOut, "nothing was sent") {
				t.Errorf("%s: exit %d, stderr %q; want exit 2 saying a private key was refused and nothing was sent", what, code, errOut)
			}
			for _, line := range strings.Split(key, "\n") {
				if len(line) > 20 && (strings.Contains(out, line) || strings.Contains(errOut, line)) {
					t.Errorf("%s: the key is shown:\nstdout: %s\nstderr: %s", what, out, errOut)
				}
			}
		}
	}
	for _, typ := range types {
		if n := e.countActivities(t, typ); n != before[typ] {
			t.Errorf("%s activities: %d, were %d: a refused command sent one", typ, n, before[typ])
		}
	}
}

func quoteJSON(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}
