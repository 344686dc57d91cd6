package cli

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// A private key pasted where a record id goes is refused before anything
// is sent: sent, it would be in the service's log and every proxy's on the
// way (audit 220, M2). A fingerprint (sha256:<hex>) is a public value and
// still goes out.
func TestAnIdThatLooksLikeAKeyIsNeverSent(t *testing.T) {
	e := newVerbEnv(t)
	env, takeSent := recordRequests(t, e)
	aliceID := e.userID("alice")
	for _, id := range []string{hexKey, "\"" + hexKey + "\",", "x\n" + hexKey} {
		for _, verb := range [][]string{
			{"activity", "get"}, {"activity", "get", "--json"}, {"activity", "evaluations"}, {"activity", "proofs"},
			{"activity", "approve", "--yes"}, {"activity", "reject", "--yes"}, {"activity", "wait"},
			{"user", "get"}, {"apikey", "get"}, {"policy", "get"}, {"mfa", "get", "--user", aliceID},
			{"mfa", "status", "--user", aliceID},
		} {
			args := append(append([]string{}, verb...), id)
			name := strings.Join(verb, " ") + " KEY"
			code, out, errOut := runVigil(t, env, "", args...)
			wantExit(t, name, code, exitUsage, out, errOut)
			if !strings.Contains(errOut, "nothing was sent") || !strings.Contains(errOut, "treat that key as exposed") {
				t.Errorf("%s: the error does not say nothing was sent and the key is exposed:\n%s", name, errOut)
			}
			if part := longestPartShown(hexKey, strings.ToLower(out+errOut)); part != "" {
				t.Errorf("%s: the key is printed (%q):\n%s%s", name, part, out, errOut)
			}
		}
	}
	for _, body := range takeSent() {
		if strings.Contains(strings.ToLower(body), hexKey) {
			t.Errorf("the key was sent: %s", body)
		}
	}

	fingerprint := "sha256:" + hexKey
	code, out, errOut := runVigil(t, env, "", "activity", "get", fingerprint)
	if code == exitUsage || !strings.Contains(errOut, fingerprint) || strings.Contains(errOut, "exposed") {
		t.Errorf("activity get %s: exit %d\n%s%s\nwant it asked for and named in the error, with no word of an exposed key", fingerprint, code, out, errOut)
	}
}

// An on-ramp transaction id and a TVC deployment id are strings another
// party chose (SPEC.md), which may be long hex: they are sent as given, not
// refused as a pasted key (audit 223).
func TestFreeFormIdsInLongHexAreSent(t *testing.T) {
	e := newVerbEnv(t)
	env, takeSent := recordRequests(t, e)
	for _, verb := range [][]string{{"onramp", "status"}, {"tvc-deployment", "delete", "--yes"}} {
		args := append(append([]string{}, verb...), hexKey)
		code, out, errOut := runVigil(t, env, "", args...)
		name := strings.Join(verb, " ")
		if code == exitUsage || strings.Contains(errOut, "nothing was sent") {
			t.Errorf("%s <64 hex digits>: exit %d, refused before sending:\n%s%s", name, code, out, errOut)
		}
		found := slices.ContainsFunc(takeSent(), func(b string) bool { return strings.Contains(b, hexKey) })
		if !found {
			t.Errorf("%s: the id was not sent", name)
		}
	}
}

// recordRequests points a config at a proxy in front of e's service that
// records every request body; takeSent returns those recorded since its
// last call.
func recordRequests(t *testing.T, e *verbEnv) (env map[string]string, takeSent func() []string) {
	t.Helper()
	var mu sync.Mutex
	var sent []string
	url := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		mu.Lock()
		defer mu.Unlock()
		sent = append(sent, string(request))
		return reply
	})
	env = map[string]string{"VIGIL_CONFIG": e.configVia(url, filepath.Join(t.TempDir(), "proxy.toml"))}
	return env, func() []string {
		mu.Lock()
		defer mu.Unlock()
		taken := sent
		sent = nil
		return taken
	}
}
