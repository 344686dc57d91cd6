package cli

import (
	"strings"
	"testing"
)

// A provider token (an OIDC ID token, a JWT) given where a file name or an
// id goes is a secret: the error describes it without printing it back, and
// an id that is one is not sent.
func TestProviderTokenOnTheCommandLineIsNeverPrintedBack(t *testing.T) {
	e := newVerbEnv(t)
	target, jwt := e.signInAtProvider("carol")
	env, takeSent := recordRequests(t, e)
	for _, args := range [][]string{
		{"login", "oauth", "--profile", "carol", "--provider-token", jwt},
		{"login", "oauth", "--profile", "carol", "--target-key", target, "--provider-token", jwt},
		{"login", "oauth", "--profile", "carol", "--target-key", target, "--provider-token=" + jwt},
		{"activity", "get", jwt},
		{"activity", "approve", "--yes", jwt},
		{"user", "get", jwt},
	} {
		line := strings.Join(args[:2], " ")
		code, out, errOut := runVigil(t, env, "", args...)
		if code == 0 {
			t.Errorf("vigil %s <token>: exit 0, want a refusal", line)
		}
		if part := longestPartShown(jwt, out+errOut); part != "" {
			t.Errorf("vigil %s <token> printed %d characters of the token:\n%s%s", line, len(part), out, errOut)
		}
		if !strings.Contains(errOut, "provider token (a JWT)") || !strings.Contains(errOut, "treat that token as exposed") {
			t.Errorf("vigil %s <token>: %q; want it to say a provider token was given and is exposed", line, errOut)
		}
	}
	for _, body := range takeSent() {
		if strings.Contains(body, jwt) {
			t.Errorf("the token was sent as an id: %s", body)
		}
	}
}
