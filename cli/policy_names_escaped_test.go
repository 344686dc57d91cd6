package cli

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// Without --json a policy's name is shown as the console shows it
// (api.NameText): a name with a real control character never looks like one
// holding the same escape typed as text, and a look-alike letter is escaped,
// in policy list and policy get; --json keeps the name exactly as sent.
func TestPolicyNamesTellRealControlsFromTypedEscapes(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "policy", "list", "--json")
	wantExit(t, "policy list --json", code, 0, out, errOut)
	var list struct {
		Policies []struct{ PolicyID, PolicyName string }
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	const orig = "Never delete the treasury account"
	id := ""
	for _, p := range list.Policies {
		if p.PolicyName == orig {
			id = p.PolicyID
		}
	}
	if id == "" {
		t.Fatalf("no policy %q in the demo", orig)
	}
	via := func(name string) *verbEnv {
		return e.via(func(op string, request, reply []byte) []byte {
			return bytes.ReplaceAll(reply, []byte(`"policyName":"`+orig+`"`), []byte(`"policyName":"`+name+`"`))
		})
	}
	shown := func(env *verbEnv) (row, get string) {
		t.Helper()
		code, out, errOut := env.run("", "policy", "list")
		wantExit(t, "policy list", code, 0, out, errOut)
		row = lineOf(t, out, id)
		code, out, errOut = env.run("", "policy", "get", id)
		wantExit(t, "policy get", code, 0, out, errOut)
		get = lineOf(t, out, "name:")
		return row, get
	}
	code, out, errOut = via(`Never delete\nthe treasury account`).run("", "policy", "list", "--json")
	wantExit(t, "policy list --json", code, 0, out, errOut)
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("policy list --json does not parse: %v\n%s", err, out)
	}
	if !slices.ContainsFunc(list.Policies, func(p struct{ PolicyID, PolicyName string }) bool {
		return p.PolicyID == id && p.PolicyName == "Never delete\nthe treasury account"
	}) {
		t.Errorf("policy list --json does not keep the name exactly as sent:\n%s", out)
	}
	realRow, realGet := shown(via(`Never delete\nthe treasury account`))    // a real newline
	typedRow, typedGet := shown(via(`Never delete\\nthe treasury account`)) // backslash, n typed as text
	if realRow == typedRow {
		t.Errorf("policy list: a real newline and a typed \\n look the same:\n%s\n%s", realRow, typedRow)
	}
	if realGet == typedGet {
		t.Errorf("policy get: a real newline and a typed \\n look the same:\n%s\n%s", realGet, typedGet)
	}
	// A look-alike: Cyrillic о (U+043E) in "account"; the console escapes it.
	lookRow, lookGet := shown(via("Never delete the treasury acc\u043eunt"))
	if strings.ContainsRune(lookRow, '\u043e') || strings.ContainsRune(lookGet, '\u043e') {
		t.Errorf("policy list/get show a look-alike letter raw (the console's api.NameText escapes it):\n%s\n%s", lookRow, lookGet)
	}
}

// The same for MFA policy names, in mfa list and mfa get.
func TestMFAPolicyNamesTellRealControlsFromTypedEscapes(t *testing.T) {
	e := newVerbEnv(t)
	const orig = "Passkey for policy changes"
	via := func(name string) *verbEnv {
		return e.via(func(op string, request, reply []byte) []byte {
			return bytes.ReplaceAll(reply, []byte(`"mfaPolicyName":"`+orig+`"`), []byte(`"mfaPolicyName":"`+name+`"`))
		})
	}
	row := func(env *verbEnv) string {
		t.Helper()
		code, out, errOut := env.run("", "mfa", "list")
		wantExit(t, "mfa list", code, 0, out, errOut)
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "for policy") {
				return l
			}
		}
		t.Fatalf("no row:\n%s", out)
		return ""
	}
	r, ty := row(via(`Passkey for policy\nchanges`)), row(via(`Passkey for policy\\nchanges`))
	if r == ty {
		t.Errorf("mfa list: a real newline and a typed \\n look the same:\n%s\n%s", r, ty)
	}
	get := func(env *verbEnv) string {
		t.Helper()
		id := strings.Fields(row(env))[0]
		code, out, errOut := env.run("", "mfa", "get", id)
		wantExit(t, "mfa get", code, 0, out, errOut)
		return lineOf(t, out, "name:")
	}
	if g, gt := get(via(`Passkey for policy\nchanges`)), get(via(`Passkey for policy\\nchanges`)); g == gt {
		t.Errorf("mfa get: a real newline and a typed \\n look the same:\n%s\n%s", g, gt)
	}
}
