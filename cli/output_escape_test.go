package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vigil-console/vigil/api"
)

// The CLI's text output escapes what the service sent once, at output, as the
// console does: a real control character and the same characters typed as
// text (a backslash, then n) must never print alike, and nothing unescaped may
// reach the terminal. These tests run the verbs against the local service.

// rawControls lists the runes of out that must not reach a terminal as they
// are: controls other than the line feeds of the output itself, DEL, C1, and
// invisible characters (bidi controls, zero-width space…), and invalid bytes.
func rawControls(out string) []rune {
	var found []rune
	for i, r := range out {
		switch {
		case r == utf8.RuneError:
			if _, n := utf8.DecodeRuneInString(out[i:]); n == 1 {
				found = append(found, r)
			}
		case r < 0x20 && r != '\n', r == 0x7f, r >= 0x80 && r <= 0x9f, api.IsInvisible(r):
			found = append(found, r)
		}
	}
	return found
}

// lineOf returns the line of out starting with prefix ("intent:").
func lineOf(t *testing.T, out, prefix string) string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	t.Fatalf("no %q line in:\n%s", prefix, out)
	return ""
}

// wantOnlyEscaped fails when out carries a raw control or invisible character.
func wantOnlyEscaped(t *testing.T, what, out string) {
	t.Helper()
	if raw := rawControls(out); len(raw) > 0 {
		t.Errorf("%s: raw %q reached the terminal:\n%s", what, raw, out)
	}
}

func TestSubmitAndVoteTellRealControlsFromTypedEscapes(t *testing.T) {
	e := newVerbEnv(t)
	policy := func(notes string) (id, intent string) {
		t.Helper()
		code, out, errOut := e.run("", "policy", "create", "--name", "notes", "--effect", "allow",
			"--condition", "activity.action == 'NOPE'", "--notes", notes)
		wantExit(t, "policy create", code, 0, out, errOut)
		wantOnlyEscaped(t, "policy create", out)
		return activityIDFrom(t, out), lineOf(t, out, "intent:")
	}
	realID, realIntent := policy("line1\nline2")
	typedID, typedIntent := policy(`line1\nline2`)
	if realIntent == typedIntent {
		t.Errorf("a real newline and a typed \\n print alike:\n%s", realIntent)
	}
	if !strings.Contains(realIntent, `"notes":"line1\nline2"`) || !strings.Contains(typedIntent, `"notes":"line1\\nline2"`) {
		t.Errorf("want the newline escaped once and the typed backslash doubled:\n%s\n%s", realIntent, typedIntent)
	}

	tag := func(name string) string {
		t.Helper()
		code, out, errOut := e.run("", "tag", "create", "--name", name, e.userID("operator"))
		wantExit(t, "tag create", code, 0, out, errOut)
		wantOnlyEscaped(t, "tag create", out)
		return lineOf(t, out, "intent:")
	}
	realTag, typedTag := tag("ab\u202ecd\u200bx\u009by"), tag(`ab\u202ecd\u200bx\u009by`)
	if realTag == typedTag {
		t.Errorf("a real U+202E and a typed \\u202e print alike:\n%s", realTag)
	}
	if !strings.Contains(realTag, `"userTagName":"ab\u202ecd\u200bx\u009by"`) || !strings.Contains(typedTag, `"userTagName":"ab\\u202ecd\\u200bx\\u009by"`) {
		t.Errorf("want the controls escaped once and the typed backslashes doubled:\n%s\n%s", realTag, typedTag)
	}

	// After a vote, and once the activity ended (activity wait), the same.
	vote := func(id string) string {
		t.Helper()
		code, out, errOut := e.run("", "activity", "approve", "--yes", "--profile", "bob", id)
		wantExit(t, "approve", code, 0, out, errOut)
		wantOnlyEscaped(t, "approve", out)
		return lineOf(t, out, "intent:")
	}
	if got := vote(realID); got != realIntent {
		t.Errorf("after the vote:\n%s\nwant\n%s", got, realIntent)
	}
	if got := vote(typedID); got != typedIntent {
		t.Errorf("after the vote:\n%s\nwant\n%s", got, typedIntent)
	}
	for id, want := range map[string]string{realID: realIntent, typedID: typedIntent} {
		code, out, errOut := e.run("", "activity", "wait", "--timeout", "30s", id)
		wantExit(t, "activity wait", code, 0, out, errOut)
		wantOnlyEscaped(t, "activity wait", out)
		if got := lineOf(t, out, "intent:"); got != want {
			t.Errorf("activity wait:\n%s\nwant\n%s", got, want)
		}
	}
}

// A service whose names and results carry controls: the requester, the
// voters and the result are shown escaped once, and differ from the same
// characters typed as text.
func TestActivityTextTellsHostileNamesAndResultsFromTypedOnes(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "tag", "create", "--name", "plain", e.userID("operator"))
	wantExit(t, "tag create", code, 0, out, errOut)
	id := activityIDFrom(t, out)
	code, out, errOut = e.run("", "activity", "approve", "--yes", "--profile", "bob", id)
	wantExit(t, "approve", code, 0, out, errOut)

	// via serves every reply with alice's name and the tag's id rewritten to
	// JSON text: `al\nice` is a real newline, `al\\nice` a backslash and n.
	via := func(name, tagID string) func(args ...string) (int, string, string) {
		hostile := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
			reply = bytes.ReplaceAll(reply, []byte(`"userName":"alice"`), []byte(`"userName":"`+name+`"`))
			return bytes.ReplaceAll(reply, []byte(`"userTagId":"`), []byte(`"userTagId":"`+tagID))
		})
		cfg, err := os.ReadFile(e.config)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "hostile.toml")
		os.WriteFile(path, []byte(strings.ReplaceAll(string(cfg), e.demo.URL, hostile)), 0o600)
		return func(args ...string) (int, string, string) {
			return runVigil(t, map[string]string{"VIGIL_CONFIG": path}, "", args...)
		}
	}
	real, typed := via(`al\nice`, `t\u202e`), via(`al\\nice`, `t\\u202e`)
	get := func(run func(args ...string) (int, string, string)) (requester, votes, result, list string) {
		t.Helper()
		code, out, errOut := run("activity", "get", id)
		wantExit(t, "activity get", code, 0, out, errOut)
		wantOnlyEscaped(t, "activity get", out)
		requester, votes, result = lineOf(t, out, "requester:"), lineOf(t, out, "votes:"), lineOf(t, out, "result:")
		code, out, errOut = run("activity", "list")
		wantExit(t, "activity list", code, 0, out, errOut)
		wantOnlyEscaped(t, "activity list", out)
		return requester, votes, result, lineOf(t, out, id)
	}
	rReq, rVotes, rResult, rList := get(real)
	tReq, tVotes, tResult, tList := get(typed)
	for _, c := range []struct{ what, real, typed, wantReal, wantTyped string }{
		{"requester", rReq, tReq, `"al\nice" (`, `"al\\nice" (`},
		{"votes", rVotes, tVotes, `"al\nice" approved`, `"al\\nice" approved`},
		{"result", rResult, tResult, `"userTagId":"t\u202e`, `"userTagId":"t\\u202e`},
		{"list", rList, tList, `"al\nice" (`, `"al\\nice" (`},
	} {
		if c.real == c.typed || !strings.Contains(c.real, c.wantReal) || !strings.Contains(c.typed, c.wantTyped) {
			t.Errorf("%s: want %s and %s:\n%s\n%s", c.what, c.wantReal, c.wantTyped, c.real, c.typed)
		}
	}
}
