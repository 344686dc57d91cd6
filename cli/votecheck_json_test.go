package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A service sends its own "voteChecks" (all verified), under any spelling
// Go folds to the key, beside an activity withVoteChecks may not be able to
// decode (one vote field of an unexpected type, no activity object): 'get
// --json' must fail, never print the service's voteChecks as vigil's.
func TestForgedVoteChecksAreRefusedWhateverTheActivity(t *testing.T) {
	e := newVerbEnv(t)
	id := openTag(t, e, "forged-checks")
	forged := []any{map[string]any{"voteId": "x", "userId": "y", "state": "verified", "reason": "signed the activity's submission"}}
	firstVote := func(m map[string]any) map[string]any {
		return m["activity"].(map[string]any)["votes"].([]any)[0].(map[string]any)
	}
	for _, c := range []struct {
		name   string
		change func(m map[string]any)
	}{
		{"a vote's createdAt of another shape", func(m map[string]any) {
			firstVote(m)["createdAt"] = 1
			m["voteChecks"] = forged
		}},
		{"a vote's user of another shape", func(m map[string]any) {
			firstVote(m)["user"] = "alice"
			m["voteChecks"] = forged
		}},
		{"a null activity", func(m map[string]any) {
			m["activity"] = nil
			m["voteChecks"] = forged
		}},
		{"the key in another case", func(m map[string]any) { m["VOTECHECKS"] = forged }},
		{"the key with a Kelvin sign", func(m map[string]any) { m["voteChec\u212as"] = forged }},
		{"a null activity, no key", func(m map[string]any) { m["activity"] = nil }},
	} {
		proxy := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
			if op != "query/"+api.QueryGetActivity {
				return reply
			}
			var m map[string]any
			if json.Unmarshal(reply, &m) != nil {
				return reply
			}
			c.change(m)
			out, _ := json.Marshal(m)
			return out
		})
		cfg := e.configVia(proxy, filepath.Join(t.TempDir(), "proxy.toml"))
		code, out, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": cfg}, "", "activity", "get", "--json", id)
		if code == exitOK || strings.Contains(strings.ToLower(out), "votechec") {
			t.Errorf("%s: exit %d, want a failure and no voteChecks:\n%.600s\nstderr: %s", c.name, code, out, errOut)
		}
	}
}

// The requester's vote line says whether the intent shown is the one she
// signed: yes as sent, FAILED when a proxy renames the tag.
func TestActivityGetSaysWhetherTheIntentShownWasSigned(t *testing.T) {
	e := newVerbEnv(t)
	id := openTag(t, e, "signed-intent")
	requesterLine := func(url string) string {
		cfg := e.configVia(url, filepath.Join(t.TempDir(), "c.toml"))
		code, out, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": cfg}, "", "activity", "get", id)
		wantExit(t, "activity get", code, exitOK, out, errOut)
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "alice approved") {
				return l
			}
		}
		t.Fatalf("no vote line of alice's:\n%s", out)
		return ""
	}
	if l := requesterLine(e.demo.URL); !strings.Contains(l, "[verified: ") || !strings.Contains(l, "intent shown are the ones its requester signed") {
		t.Errorf("as sent, the requester's vote does not say the intent shown is the one signed: %s", l)
	}
	proxy := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		if op != "query/"+api.QueryGetActivity {
			return reply
		}
		return []byte(strings.ReplaceAll(string(reply), `"userTagName":"signed-intent"`, `"userTagName":"admins"`))
	})
	if l := requesterLine(proxy); !strings.Contains(l, "[FAILED") || !strings.Contains(l, "intent shown differs from the signed submission in userTagName") {
		t.Errorf("under a renamed tag, the requester's vote does not fail naming the field: %s", l)
	}
}
