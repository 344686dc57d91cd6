package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/proof"
	"github.com/vigil-console/vigil/server/servertest"
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

// via is the same env seen through a proxy that passes every reply of the
// service through rewrite: a hostile service whose records carry controls.
func (e *verbEnv) via(rewrite servertest.Rewrite) *verbEnv {
	e.t.Helper()
	hostile := e.demo.Rewriting(rewrite)
	cfg, err := os.ReadFile(e.config)
	if err != nil {
		e.t.Fatal(err)
	}
	path := filepath.Join(e.t.TempDir(), "hostile.toml")
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(string(cfg), e.demo.URL, hostile)), 0o600); err != nil {
		e.t.Fatal(err)
	}
	return &verbEnv{demo: e.demo, config: path, t: e.t}
}

func TestSubmitAndVoteTellRealControlsFromTypedEscapes(t *testing.T) {
	e := newVerbEnv(t)
	policy := func(notes string) (id, intent string) {
		t.Helper()
		code, out, errOut := e.run("", "policy", "create", "--name", "notes", "--effect", "allow",
			"--condition", "activity.action == 'NOPE'", "--notes", notes)
		wantExit(t, "policy create", code, 0, out, errOut)
		wantOnlyEscaped(t, "policy create", out)
		return activityIDFrom(t, out), intentFieldLine(t, out, "notes")
	}
	realID, realIntent := policy("line1\nline2")
	typedID, typedIntent := policy(`line1\nline2`)
	if realIntent == typedIntent {
		t.Errorf("a real newline and a typed \\n print alike:\n%s", realIntent)
	}
	if !strings.Contains(realIntent, `notes:      "line1\nline2"`) || !strings.Contains(typedIntent, `notes:      "line1\\nline2"`) {
		t.Errorf("want the newline escaped once and the typed backslash doubled:\n%s\n%s", realIntent, typedIntent)
	}

	tag := func(name string) string {
		t.Helper()
		code, out, errOut := e.run("", "tag", "create", "--name", name, e.userID("operator"))
		wantExit(t, "tag create", code, 0, out, errOut)
		wantOnlyEscaped(t, "tag create", out)
		return intentFieldLine(t, out, "userTagName")
	}
	realTag, typedTag := tag("ab\u202ecd\u200bx\u009by"), tag(`ab\u202ecd\u200bx\u009by`)
	if realTag == typedTag {
		t.Errorf("a real U+202E and a typed \\u202e print alike:\n%s", realTag)
	}
	if !strings.Contains(realTag, `userTagName: "ab\u202ecd\u200bx\u009by"`) || !strings.Contains(typedTag, `userTagName: "ab\\u202ecd\\u200bx\\u009by"`) {
		t.Errorf("want the controls escaped once and the typed backslashes doubled:\n%s\n%s", realTag, typedTag)
	}

	// After a vote, and once the activity ended (activity wait), the same.
	vote := func(id string) string {
		t.Helper()
		code, out, errOut := e.run("", "activity", "approve", "--yes", "--profile", "bob", id)
		wantExit(t, "approve", code, 0, out, errOut)
		wantOnlyEscaped(t, "approve", out)
		return intentFieldLine(t, out, "notes")
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
		if got := intentFieldLine(t, out, "notes"); got != want {
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
	via := func(name, tagID string) *verbEnv {
		return e.via(func(op string, request, reply []byte) []byte {
			reply = bytes.ReplaceAll(reply, []byte(`"userName":"alice"`), []byte(`"userName":"`+name+`"`))
			return bytes.ReplaceAll(reply, []byte(`"userTagId":"`), []byte(`"userTagId":"`+tagID))
		})
	}
	real, typed := via(`al\nice`, `t\u202e`), via(`al\\nice`, `t\\u202e`)
	get := func(env *verbEnv) (requester, votes, result, list string) {
		t.Helper()
		code, out, errOut := env.run("", "activity", "get", id)
		wantExit(t, "activity get", code, 0, out, errOut)
		wantOnlyEscaped(t, "activity get", out)
		requester, votes, result = lineOf(t, out, "requester:"), lineOf(t, out, "votes:"), lineOf(t, out, "result:")
		code, out, errOut = env.run("", "activity", "list")
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

// webhook verify reports a delivery's claimed values escaped once: as a line,
// quoted when they hold a control; with --json, exact behind \uXXXX escapes,
// so that a reader decodes what the sender sent.
func TestWebhookVerifyReportsValuesEscapedOnce(t *testing.T) {
	dir := t.TempDir()
	jwks, body := filepath.Join(dir, "jwks.json"), filepath.Join(dir, "delivery.body")
	os.WriteFile(jwks, []byte(`{"keys":[]}`), 0o600)
	os.WriteFile(body, []byte(`{"id":"act\u202e1","type":"T","status":"S"}`), 0o600)
	verify := func(eventID string, asJSON bool) string {
		t.Helper()
		args := []string{"webhook", "verify", "--jwks", jwks, "--organization", "org-1", "--body", body,
			"--header", "X-Service-Event-Id: " + eventID, "--header", "X-Service-Signature-Key-Id: k1"}
		if asJSON {
			args = append(args, "--json")
		}
		code, out, errOut := runVigil(t, nil, "", args...)
		wantExit(t, "webhook verify of an unsigned delivery", code, 1, out, errOut)
		wantOnlyEscaped(t, "webhook verify", out+errOut)
		return out
	}
	const real, typed = "ev\u202e1", `ev\u202e1`
	if r, ty := verify(real, false), verify(typed, false); r == ty || !strings.Contains(r, `event="ev\u202e1"`) || !strings.Contains(ty, `event=ev\u202e1`) {
		t.Errorf("the lines should differ, the real control quoted:\n%s%s", r, ty)
	}
	for _, want := range []string{real, typed} {
		out := verify(want, true)
		var rep deliveryReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil || strings.Count(out, "\n") != 1 {
			t.Fatalf("--json should print one object on one line: %v\n%s", err, out)
		}
		if rep.EventID != want || rep.ActivityID != "act\u202e1" || rep.KeyID != "k1" {
			t.Errorf("--json should keep the values exact: event %q activity %q key %q\n%s", rep.EventID, rep.ActivityID, rep.KeyID, out)
		}
	}
}

// A boot proof's manifest names its quorum members by alias: an alias is
// quoted once, so a real newline in it and a typed \n print differently.
func TestProofReportQuotesAliasesOnce(t *testing.T) {
	show := func(alias string) string {
		t.Helper()
		rep := &proof.Report{Verdict: proof.Verified, Manifest: &proof.Manifest{
			ManifestSet: proof.QuorumSet{Threshold: 1, Members: []proof.Member{{Alias: alias, PubKey: proof.HexBytes{1}}}},
			Approvals:   []proof.Approval{{Alias: alias, PubKey: proof.HexBytes{1}, Valid: true, Member: true}},
		}}
		var out bytes.Buffer
		if err := printReport(proc{stdout: &out}, rep, nil, false); err != nil {
			t.Fatal(err)
		}
		wantOnlyEscaped(t, "proof report", out.String())
		return out.String()
	}
	real, typed := show("op\n1\u202e"), show(`op\n1\u202e`)
	if strings.Count(real, `"op\n1\u202e"`) != 2 || strings.Count(typed, `"op\\n1\\u202e"`) != 2 {
		t.Errorf("want each alias quoted once, for the member and the approval:\n%s\n%s", real, typed)
	}
}

// The note under a page cut short names the last id to go on from: an id
// from the service, escaped like the table's, so a hostile service cannot
// reach the terminal through it.
func TestCutShortNoteEscapesTheID(t *testing.T) {
	hostile := "0192\x1b]0;PWNED\a\x1b[2J"
	svc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"activities":[{"id":"older"}]}`) // older ones follow
	}))
	t.Cleanup(svc.Close)
	k, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	client, err := api.NewClient(svc.URL, "org", k)
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	noteFollowing(context.Background(), proc{stderr: &stderr}, client, api.ListActivitiesOptions{Limit: 10}, 2, "first", hostile)
	if !strings.Contains(stderr.String(), "older ones follow: --after ") {
		t.Fatalf("no note: %q", stderr.String())
	}
	wantOnlyEscaped(t, "the note", stderr.String())
}

// TestNamedIDsTellHostileNamesFromTypedOnes: tables that show users and
// tags by name (user list, user get, feature list's root quorum) escape
// the exact name once: a real newline and a typed backslash-n print
// differently, and a tag whose name holds the list's separator reads as one.
func TestNamedIDsTellHostileNamesFromTypedOnes(t *testing.T) {
	e := newVerbEnv(t)
	operator := e.userID("operator")
	via := func(name, tag string) *verbEnv {
		return e.via(func(op string, request, reply []byte) []byte {
			reply = bytes.ReplaceAll(reply, []byte(`"userName":"alice"`), []byte(`"userName":"`+name+`"`))
			return bytes.ReplaceAll(reply, []byte(`"userTagName":"auditors"`), []byte(`"userTagName":"`+tag+`"`))
		})
	}
	lines := func(env *verbEnv) (tags, row, quorum string) {
		t.Helper()
		code, out, errOut := env.run("", "user", "get", operator)
		wantExit(t, "user get", code, 0, out, errOut)
		wantOnlyEscaped(t, "user get", out)
		tags = lineOf(t, out, "tags:")
		code, out, errOut = env.run("", "user", "list")
		wantExit(t, "user list", code, 0, out, errOut)
		wantOnlyEscaped(t, "user list", out)
		row = lineOf(t, out, operator)
		code, out, errOut = env.run("", "feature", "list")
		wantExit(t, "feature list", code, 0, out, errOut)
		wantOnlyEscaped(t, "feature list", out)
		return tags, row, lineOf(t, out, "root quorum:")
	}
	rTags, rRow, rQuorum := lines(via(`al\nice`, `aud\nitors`))
	tTags, tRow, tQuorum := lines(via(`al\\nice`, `aud\\nitors`))
	for _, c := range []struct{ what, real, typed, wantReal, wantTyped string }{
		{"user get tags", rTags, tTags, `"aud\nitors" (`, `"aud\\nitors" (`},
		{"user list tags", rRow, tRow, `"aud\nitors"`, `"aud\\nitors"`},
		{"root quorum", rQuorum, tQuorum, `"al\nice" (`, `"al\\nice" (`},
	} {
		if c.real == c.typed || !strings.Contains(c.real, c.wantReal) || !strings.Contains(c.typed, c.wantTyped) {
			t.Errorf("%s: want %s and %s:\n%s\n%s", c.what, c.wantReal, c.wantTyped, c.real, c.typed)
		}
	}
	_, row, _ := lines(via("alice", "ops,admin"))
	if !strings.Contains(row, `"ops,admin"`) {
		t.Errorf("user list: a tag named ops,admin is not shown as one quoted name:\n%s", row)
	}
}
