package cli

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// intentFieldLine returns the line of out holding the intent field name (as
// "  name: value", under the intent's head).
func intentFieldLine(t *testing.T, out, name string) string {
	t.Helper()
	for l := range strings.Lines(out) {
		if strings.HasPrefix(strings.TrimSpace(l), name+":") {
			return strings.TrimSuffix(l, "\n")
		}
	}
	t.Fatalf("no intent field %q in:\n%s", name, out)
	return ""
}

// carolOauth signs carol in with an OIDC token minted for a new target key:
// the oauth activity, the token and the target key in hex.
func carolOauth(t *testing.T, e *verbEnv) (*api.Activity, string, string) {
	t.Helper()
	target, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	targetHex := hex.EncodeToString(target.PublicKey().Bytes())
	token, err := e.demo.Server.MintDemoOIDCToken(e.demo.Info.OrganizationID, "carol", api.OauthNonce(targetHex))
	if err != nil {
		t.Fatal(err)
	}
	act, err := e.client("carol").OAuth(context.Background(), api.OauthParams{OidcToken: token, TargetPublicKey: targetHex})
	if err != nil {
		t.Fatal(err)
	}
	return act, token, targetHex
}

// `activity get` shows a policy's condition as it was written, a source
// line a line: the `|| true` after a `// comment` line is on a line of its
// own, not hidden in one long line after an escaped \n.
func TestActivityGetShowsAConditionLineByLine(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "policy", "create", "--name", "two lines", "--effect", "allow",
		"--condition", "activity.action == 'NOPE' // only this\n|| true")
	wantExit(t, "policy create", code, 0, out, errOut)
	id := activityIDFrom(t, out)
	code, out, errOut = e.run("", "activity", "get", id)
	wantExit(t, "activity get", code, 0, out, errOut)
	second := ""
	for l := range strings.Lines(out) {
		if strings.Contains(l, "|| true") {
			second = strings.TrimSpace(l)
		}
	}
	if second != api.Quote("|| true") {
		t.Errorf("the condition's second line is not on a line of its own (found %q):\n%s", second, out)
	}
	if !strings.Contains(intentFieldLine(t, out, "condition"), "// only this") {
		t.Errorf("the condition's first line is not on its label's line:\n%s", out)
	}
	// --json is the reply as sent.
	code, out, errOut = e.run("", "activity", "get", "--json", id)
	wantExit(t, "activity get --json", code, 0, out, errOut)
	if !strings.Contains(out, `"condition": "activity.action == 'NOPE' // only this\n|| true"`) {
		t.Errorf("activity get --json does not show the condition as sent:\n%s", out)
	}
}

// A long intent is never cut silently: a long condition (what decides) is
// shown whole, and long notes are shortened with a line saying so and
// where to read them whole.
func TestActivityGetShowsALongIntentWholeOrSaysItIsShortened(t *testing.T) {
	e := newVerbEnv(t)
	cond := "activity.action == 'NOPE'" + strings.Repeat(" && activity.resource != 'WALLET'", 20) + " && activity.type == 'END'"
	notes := strings.Repeat("why this policy exists. ", 20) + "THE END"
	code, out, errOut := e.run("", "policy", "create", "--name", "long", "--effect", "deny", "--condition", cond, "--notes", notes)
	wantExit(t, "policy create", code, 0, out, errOut)
	id := activityIDFrom(t, out)
	code, out, errOut = e.run("", "activity", "get", id)
	wantExit(t, "activity get", code, 0, out, errOut)
	if !strings.Contains(intentFieldLine(t, out, "condition"), cond) {
		t.Errorf("the %d-character condition is not shown whole:\n%s", len(cond), out)
	}
	if strings.Contains(out, "THE END") {
		t.Fatalf("precondition: notes of %d characters are shortened:\n%s", len(notes), out)
	}
	if !strings.Contains(out, "'vigil activity get --json "+id+"' shows it whole") {
		t.Errorf("the notes are shortened without saying where to read them whole:\n%s", out)
	}
}

// An oauth activity's OIDC token is not printed by `activity get`: it is
// named, with the claims under it, never shown.
func TestActivityGetHidesAnOauthToken(t *testing.T) {
	e := newVerbEnv(t)
	act, token, targetHex := carolOauth(t, e)
	code, out, errOut := e.run("", "activity", "get", act.ID)
	wantExit(t, "activity get", code, 0, out, errOut)
	intentFieldLine(t, out, "oidcToken")
	for _, part := range strings.Split(token, ".") {
		if strings.Contains(out, part) {
			t.Fatalf("activity get shows the token:\n%s", out)
		}
	}
	if !strings.Contains(out, targetHex) {
		t.Errorf("activity get does not show the oauth intent's target key:\n%s", out)
	}
}
