package cli

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// ambiguousVoteConfig is a config whose proxy answers bob's approval of
// the activity with {"activity": other, "ACTIVITY": <the real reply's,
// showing the vote>}: encoding/json decodes the second, jq reads the first.
// With rereadToo the activity's reads after the vote are answered the same
// way (with the read's own activity second).
func ambiguousVoteConfig(t *testing.T, e *verbEnv, other json.RawMessage, rereadToo bool) string {
	var mu sync.Mutex
	voted := false
	url := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case op == "submit/approve_activity":
			voted = true
		case op == "query/get_activity" && voted && rereadToo:
		default:
			return reply
		}
		return readTwoWays(t, other, reply)
	})
	return e.configVia(url, filepath.Join(t.TempDir(), "ambiguous.toml"))
}

// 'activity approve --json' answered {"activity": <another>, "ACTIVITY":
// <this one, showing the vote>} printed the other activity to jq while
// deciding (exit 0) on this one. The reply is decided on by no one; reading
// the activity again is answered the same way, so the outcome stays
// unknown: exit 4, nothing printed.
func TestApproveJSONReplyReadTwoWaysIsOutcomeUnknown(t *testing.T) {
	e := newVerbEnv(t)
	id := openTag(t, e, "approve-two-ways")
	idB, other := otherActivity(t, e, "approve-two-ways-other")
	cfg := ambiguousVoteConfig(t, e, other, true)
	code, out, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": cfg}, "", "activity", "approve", "--yes", "--json", "--profile", "bob", id)
	wantExit(t, "an approval answered with a reply read two ways", code, exitOutcomeUnknown, out, errOut)
	if out != "" {
		t.Errorf("standard output holds a reply that jq and vigil read differently:\n%s", out)
	}
	if strings.Contains(out, idB) {
		t.Errorf("standard output holds the other activity %s", idB)
	}
	if !strings.Contains(errOut, "read two ways") || !strings.Contains(errOut, "vigil activity get "+id) {
		t.Errorf("standard error does not say the reply can be read two ways, and where to look:\n%s", errOut)
	}
}

// When only the vote's reply is read two ways, the activity read again is
// what is decided on and printed: the vote counted (exit 0), and standard
// output is that read, not the other activity.
func TestApproveJSONReplyReadTwoWaysIsSettledByReading(t *testing.T) {
	e := newVerbEnv(t)
	id := openTag(t, e, "approve-two-ways-settled")
	idB, other := otherActivity(t, e, "approve-two-ways-settled-other")
	cfg := ambiguousVoteConfig(t, e, other, false)
	code, out, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": cfg}, "", "activity", "approve", "--yes", "--json", "--profile", "bob", id)
	wantExit(t, "an approval settled by reading", code, exitOK, out, errOut)
	if strings.Contains(out, idB) || !strings.Contains(out, id) {
		t.Errorf("standard output is not the activity voted on (%s) alone:\n%s", id, out)
	}
	if !strings.Contains(errOut, "read two ways") || !strings.Contains(errOut, "counted") {
		t.Errorf("standard error does not say the reply was read two ways and the vote counted:\n%s", errOut)
	}
}

// A typed submit verb's --json printed the reply as sent, {"activity":
// <another>, "ACTIVITY": <its own>}, while checking the second: refused,
// exit 4, nothing printed.
func TestSubmitVerbJSONReplyReadTwoWaysIsOutcomeUnknown(t *testing.T) {
	e := newVerbEnv(t)
	idB, other := otherActivity(t, e, "submit-two-ways-other")
	env := map[string]string{"VIGIL_CONFIG": answeredTwoWays(t, e, "submit/create_user_tag", other)}
	code, out, errOut := runVigil(t, env, "", "tag", "create", "--json", "--name", "submit-two-ways")
	wantExit(t, "a submit answered with a reply read two ways", code, exitOutcomeUnknown, out, errOut)
	if out != "" || strings.Contains(out, idB) {
		t.Errorf("standard output holds a reply that jq and vigil read differently:\n%s", out)
	}
	if !strings.Contains(errOut, "read two ways") || !strings.Contains(errOut, `"ACTIVITY"`) {
		t.Errorf("standard error does not say the reply can be read two ways, and why:\n%s", errOut)
	}
}

// An honest reply with fields vigil does not know is still printed as sent,
// with vigil's checks after it.
func TestSubmitVerbJSONHonestReplyIsPrintedAsSent(t *testing.T) {
	wantHonestReplyPrintedAsSent(t, newVerbEnv(t), true, "tag", "create", "--json", "--name", "submit-honest")
}

// The read that settles a vote is the one printed: a later read (a cache
// answering with another activity) is not asked for, let alone printed
// as what the vote came to.
func TestApproveJSONPrintsTheReadItSettledOn(t *testing.T) {
	e := newVerbEnv(t)
	id := openTag(t, e, "approve-settled-read")
	idB, other := otherActivity(t, e, "approve-settled-read-other")
	var mu sync.Mutex
	voted, reads := false, 0
	url := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		mu.Lock()
		defer mu.Unlock()
		switch op {
		case "submit/approve_activity":
			voted = true
			return readTwoWays(t, other, reply)
		case "query/get_activity":
			if reads++; voted && reads > 2 { // the read before the vote, the one after it, then the cache's
				return []byte(`{"activity":` + string(other) + `}`)
			}
		}
		return reply
	})
	cfg := e.configVia(url, filepath.Join(t.TempDir(), "later.toml"))
	code, out, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": cfg}, "", "activity", "approve", "--yes", "--json", "--profile", "bob", id)
	wantExit(t, "an approval settled by reading", code, exitOK, out, errOut)
	if strings.Contains(out, idB) || !strings.Contains(out, id) {
		t.Errorf("standard output is not the read that showed the vote on %s:\n%s", id, out)
	}
}

// 'activity list --json' prints the page as sent, but names the next
// page's cursor from what it decoded: from {"activities":[…],
// "ACTIVITIES":[<made up>]} it named an activity jq never sees. No cursor
// is taken from such a reply; standard error says why.
func TestListJSONNamesNoCursorFromAReplyReadTwoWays(t *testing.T) {
	e := newVerbEnv(t)
	openTag(t, e, "list-two-ways")
	const fake = "0000dead-beef-7000-8000-00000000f00d"
	url := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		if op != "query/list_activities" {
			return reply
		}
		// Last: encoding/json keeps the last of two keys it matches alike.
		return append(bytes.TrimSuffix(bytes.TrimSpace(reply), []byte("}")), []byte(`,"ACTIVITIES":[{"id":"`+fake+`"}]}`)...)
	})
	env := map[string]string{"VIGIL_CONFIG": e.configVia(url, filepath.Join(t.TempDir(), "list.toml"))}
	code, out, errOut := runVigil(t, env, "", "activity", "list", "--json", "--limit", "1")
	wantExit(t, "a listing read two ways", code, exitOK, out, errOut)
	if strings.Contains(errOut, fake) {
		t.Errorf("standard error names a cursor only encoding/json read:\n%s", errOut)
	}
	if !strings.Contains(errOut, "read two ways") {
		t.Errorf("standard error does not say why it could not tell whether more follow:\n%s", errOut)
	}
}
