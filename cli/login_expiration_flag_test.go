package cli

import (
	"strings"
	"testing"
)

// --expiration is checked as the flag is parsed, before the nonce is printed
// and the user sent to sign in: the token is good only once, and a lifetime
// refused after the sign-in wastes it (and drops the fresh target key the
// token is bound to). Over the service's 10-year limit and 0 (no lifetime,
// which is not "the default") are refused with what to type.
func TestLoginExpirationCheckedBeforeSignIn(t *testing.T) {
	e := newVerbEnv(t)
	for _, lifetime := range []string{"87601h", "315360001", "0", "0s", "1.5s", "-1"} {
		code, out, errOut := e.run("a.b.c\n", "login", "oauth", "--provider-token", "-", "--name", "k", "--expiration", lifetime)
		if code != 2 || strings.Contains(out+errOut, "nonce") {
			t.Errorf("--expiration %s: exit %d, not refused before the sign-in:\nstdout: %s\nstderr: %s", lifetime, code, out, errOut)
		}
		if !strings.Contains(errOut, "expiration") || !strings.Contains(errOut, "give") {
			t.Errorf("--expiration %s: the refusal does not name the flag and what to type: %q", lifetime, errOut)
		}
	}
}
