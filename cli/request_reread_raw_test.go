package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// A vote's reply that does not show the vote (a cache's copy from before
// it) is settled by reading the activity again, and 'vigil request' prints
// that read: the service's reply to it as received (its field order, its
// escapes, fields vigil does not know), escaped for the terminal as every
// reply of 'request' is, not vigil's re-encoding of what it decoded; and
// standard error says it is the read.
func TestRequestVoteRereadIsPrintedAsReceived(t *testing.T) {
	e := newVerbEnv(t)
	a, stale := openTagReadBefore(t, e, "reread-raw")
	// A field vigil does not know, first, with an escape a re-encoding
	// would not keep, and a character that must not reach a terminal raw
	// (sent raw: printed escaped).
	const extra = `"zNotVigils":"caf\u00e9 ` + "\u202e" + `",`
	url := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		switch op {
		case "submit/approve_activity":
			return stale
		case "query/get_activity":
			return bytes.Replace(reply, []byte(`{"activity":{`), []byte(`{"activity":{`+extra), 1)
		}
		return reply
	})
	code, out, errOut := sendVoteRequest(t, e, e.configVia(url, filepath.Join(t.TempDir(), "stale.toml")), a.Fingerprint)
	wantExit(t, "a vote answered with a copy from before it", code, exitOK, out, errOut)
	if !strings.Contains(errOut, "read after the vote") {
		t.Errorf("standard error does not say standard output is the activity read after the vote:\n%s", errOut)
	}
	field := strings.Index(out, `"zNotVigils": "caf\u00e9 \u202e"`)
	if field < 0 || field > strings.Index(out, `"id"`) {
		t.Errorf("standard output is not the read as the service sent it (its unknown field first, escapes kept):\n%s", out)
	}
	if strings.ContainsRune(out, '\u202e') {
		t.Errorf("standard output holds a raw U+202E:\n%s", out)
	}
}
