//go:build linux

package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// rewriteEveryVote rewrites every vote of a get_activity reply with f.
func rewriteEveryVote(f func(v map[string]any)) servertest.Rewrite {
	return func(op string, request, reply []byte) []byte {
		if op != "query/"+api.QueryGetActivity {
			return reply
		}
		var m map[string]any
		if json.Unmarshal(reply, &m) != nil {
			return reply
		}
		act, _ := m["activity"].(map[string]any)
		for _, v := range act["votes"].([]any) {
			f(v.(map[string]any))
		}
		b, _ := json.Marshal(m)
		return b
	}
}

// The interactive 'activity approve' prompt is where a voter approves a
// fingerprint believing the intent shown; when no verified submission binds
// that intent (here a proxy dropped the requester's signed message), the
// console's vote dialog warns, and so must the CLI prompt, and an approval
// with --yes on stderr.
func TestApprovePromptWarnsTheIntentIsNotChecked(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "tag", "create", "--name", "unbound", e.userID("operator"))
	wantExit(t, "tag create", code, 0, out, errOut)
	id := activityIDFrom(t, out)
	via := e.via(rewriteEveryVote(func(v map[string]any) { v["message"] = "" }))
	code, out, errOut = via.run("", "activity", "get", id)
	wantExit(t, "activity get", code, 0, out, errOut)
	if !strings.Contains(out, "NOT checked") {
		t.Fatalf("activity get does not say NOT checked (precondition):\n%s", out)
	}
	code, _, errOut, _ = via.runOnTerminal("Approve this activity? [y/N]", "n\n", "activity", "approve", "--profile", "bob", id)
	if code != 1 {
		t.Fatalf("answer n: exit %d\n%s", code, errOut)
	}
	warn, ask := strings.Index(errOut, "intent check: WARNING: NOT checked"), strings.Index(errOut, "Approve this activity?")
	if warn < 0 || warn > ask {
		t.Errorf("the approve prompt asks for an approval of an intent no signed submission binds, without the intent-check warning before the question:\n%s", errOut)
	}
	// Unchanged, the requester's signed submission binds it: no warning.
	code, _, errOut, _ = e.runOnTerminal("Approve this activity? [y/N]", "n\n", "activity", "approve", "--profile", "bob", id)
	if code != 1 || strings.Contains(errOut, "NOT checked") {
		t.Errorf("honest reply: exit %d, and the prompt should not warn:\n%s", code, errOut)
	}
	// --yes shows no prompt: the warning goes to stderr.
	code, out, errOut = via.run("", "activity", "approve", "--yes", "--profile", "bob", id)
	wantExit(t, "approve --yes", code, 0, out, errOut)
	if !strings.Contains(errOut, "intent check: WARNING: NOT checked") {
		t.Errorf("approve --yes of an intent no signed submission binds says no intent-check warning:\n%s", errOut)
	}
}

// SchemeContradiction FAILS a vote under a scheme vigil does not know whose
// key the user list holds as the voter's API key. A proxy that blanks the
// scheme ("") instead of relabelling it must not escape it.
func TestBlankedSchemeOfAnAPIKeyVoteFails(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "tag", "create", "--name", "blank", e.userID("operator"))
	wantExit(t, "tag create", code, 0, out, errOut)
	id := activityIDFrom(t, out)
	for _, scheme := range []string{"SIGNATURE_SCHEME_TK_API_WEBAUTHN", "SIGNATURE_SCHEME_NEW", ""} {
		via := e.via(rewriteEveryVote(func(v map[string]any) { v["scheme"] = scheme }))
		code, out, errOut = via.run("", "activity", "get", id)
		wantExit(t, "activity get", code, 0, out, errOut)
		if !strings.Contains(out, "FAILED") {
			t.Errorf("scheme %q: the requester's API-key vote relabelled is not FAILED:\n%s", scheme, out)
		}
		code, out, errOut = via.run("", "activity", "get", "--json", id)
		wantExit(t, "activity get --json", code, 0, out, errOut)
		if !strings.Contains(strings.ReplaceAll(out, " ", ""), `"state":"FAILED"`) {
			t.Errorf("scheme %q: --json: the requester's API-key vote relabelled is not FAILED:\n%s", scheme, out)
		}
	}
}
