package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// An effect the service does not know (no prefix, a trailing space, a
// look-alike letter) neither allows nor denies; policy list and policy get
// show it quoted and marked unknown, never trimmed to read as ALLOW.
func TestPolicyListAndGetShowAnUnknownEffectQuoted(t *testing.T) {
	e := newVerbEnv(t)
	const orig = "Never delete the treasury account"
	code, out, errOut := e.run("", "policy", "list", "--json")
	wantExit(t, "policy list --json", code, 0, out, errOut)
	var list struct {
		Policies []struct{ PolicyID, PolicyName, Effect string }
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	id := ""
	for _, p := range list.Policies {
		if p.PolicyName == orig && p.Effect == "EFFECT_DENY" {
			id = p.PolicyID
		}
	}
	if id == "" {
		t.Fatalf("no deny policy %q in the demo", orig)
	}
	for _, effect := range []string{"ALLOW", "DENY", "EFFECT_ALLOW ", "EFFECT_\u0410LLOW"} {
		via := e.via(func(op string, request, reply []byte) []byte {
			// Every deny in the reply gets the hostile effect.
			return bytes.ReplaceAll(reply, []byte(`"effect":"EFFECT_DENY"`), []byte(`"effect":"`+effect+`"`))
		})
		code, out, errOut := via.run("", "policy", "list")
		wantExit(t, "policy list", code, 0, out, errOut)
		row := lineOf(t, out, id)
		if !strings.Contains(row, "unknown effect") {
			t.Errorf("policy list shows effect %q as if known:\n%s", effect, row)
		}
		code, out, errOut = via.run("", "policy", "get", id)
		wantExit(t, "policy get", code, 0, out, errOut)
		got := lineOf(t, out, "effect:")
		if !strings.Contains(got, "unknown effect") || strings.ContainsRune(got, '\u0410') {
			t.Errorf("policy get shows effect %q as %q", effect, got)
		}
	}
}
