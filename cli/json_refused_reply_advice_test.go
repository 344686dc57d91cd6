package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// ownIntentCheckEnv is the environment of a profile reaching the service
// through a proxy that adds an "intentCheck" of its own to every submit's
// and get_activity's reply: vigil refuses to print such a reply with its
// checks (withVoteChecks).
func ownIntentCheckEnv(t *testing.T, e *verbEnv) map[string]string {
	t.Helper()
	url := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		if !strings.HasPrefix(op, "submit/") && op != "query/"+api.QueryGetActivity {
			return reply
		}
		return []byte(strings.Replace(string(reply), `{"activity":`, `{"intentCheck":{"state":"checked"},"activity":`, 1))
	})
	return map[string]string{"VIGIL_CONFIG": e.configVia(url, filepath.Join(t.TempDir(), "own.toml"))}
}

// After a submit or vote the service recorded, a reply refused with
// --json is exit 4 pointing at a read of the activity (without --json,
// which refuses it too), never at 'vigil request', whose nearest way to
// "read the reply" of a submit is to send it again. activity get --json,
// a read, points at the raw read.
func TestRefusedJSONReplyAdviceFitsWhatWasDone(t *testing.T) {
	e := newVerbEnv(t)
	env := ownIntentCheckEnv(t, e)
	id := openTag(t, e, "refused-advice")
	for _, c := range []struct {
		what, again string
		args        []string
	}{
		{"tag create --json", "do not submit it again", []string{"tag", "create", "--json", "--name", "refused-advice-2"}},
		{"activity approve --json", "do not vote again", []string{"activity", "approve", "--yes", "--json", "--profile", "bob", id}},
	} {
		code, out, errOut := runVigil(t, env, "", c.args...)
		wantExit(t, c.what, code, exitOutcomeUnknown, out, errOut)
		if !strings.Contains(errOut, "an intentCheck field of its own") || !strings.Contains(errOut, c.again) {
			t.Errorf("%s: standard error does not say why the reply is refused and %q:\n%s", c.what, c.again, errOut)
		}
		if strings.Contains(errOut, "vigil request") || strings.Contains(errOut, "a intentCheck") {
			t.Errorf("%s: after a recorded request, standard error points at 'vigil request' or misspells the field:\n%s", c.what, errOut)
		}
		if !strings.Contains(errOut, "see it with 'vigil activity get ") || !strings.Contains(errOut, "(without --json") {
			t.Errorf("%s: standard error does not point at reading the activity without --json:\n%s", c.what, errOut)
		}
	}
	code, out, errOut := runVigil(t, env, "", "activity", "get", "--json", id)
	if code == exitOK || out != "" {
		t.Errorf("activity get --json of a reply with its own intentCheck: exit %d, output %q; want it refused", code, out)
	}
	if !strings.Contains(errOut, "vigil request --path /public/v1/query/get_activity") {
		t.Errorf("activity get --json, refused, does not point at the raw read:\n%s", errOut)
	}
}

// activity wait --json whose final read and copy seen at the end are both
// refused prints nothing: exit 3, not the activity's own 0, so that a
// script does not take an empty output for a COMPLETED activity's record,
// and standard error names the end.
func TestWaitJSONPrintingNothingIsNotSuccess(t *testing.T) {
	e := newVerbEnv(t)
	env := ownIntentCheckEnv(t, e)
	doneID, _, _ := completedAndOpen(t, e, "refused-wait")
	code, out, errOut := runVigil(t, env, "", "activity", "wait", "--json", doneID)
	wantExit(t, "wait --json, both copies refused", code, exitWaitFailed, out, errOut)
	if out != "" {
		t.Errorf("standard output holds a refused reply:\n%s", out)
	}
	if !strings.Contains(errOut, "ended COMPLETED, but nothing is printed") {
		t.Errorf("standard error does not name the end and say nothing is printed:\n%s", errOut)
	}
}
