package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// The read after a vote is checked decoded (encoding/json: a key matches a
// field case-insensitively, the last one wins) but printed as raw bytes. A
// reply {"activity": <another activity>, "ACTIVITY": <the one voted on>}
// passed every binding check, and every JSON reader but Go's (jq, Python)
// reads .activity as the other activity: exit 0, printing another activity.
// Such a read says nothing of the vote: exit 4, and the other activity is
// not printed.
func TestRequestRereadRawPrintsAnotherActivity(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	idA := openTag(t, e, "dup-voted")
	idB := openTag(t, e, "dup-other")
	a, err := e.client("alice").GetActivity(ctx, idA)
	if err != nil {
		t.Fatal(err)
	}
	org := e.demo.Info.OrganizationID
	stale, err := e.client("bob").QueryRaw(ctx, api.QueryGetActivity, api.GetActivityRequest{OrganizationID: org, ActivityID: idA})
	if err != nil {
		t.Fatal(err)
	}
	otherRaw, err := e.client("bob").QueryRaw(ctx, api.QueryGetActivity, api.GetActivityRequest{OrganizationID: org, ActivityID: idB})
	if err != nil {
		t.Fatal(err)
	}
	other := innerActivity(t, otherRaw)
	var voted atomic.Bool // only the read after the vote is rewritten
	url := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		switch op {
		case "submit/approve_activity":
			voted.Store(true)
			return stale
		case "query/get_activity":
			if voted.Load() && bytes.Contains(request, []byte(idA)) {
				return readTwoWays(t, other, reply)
			}
		}
		return reply
	})
	code, out, errOut := sendVoteRequest(t, e, e.configVia(url, filepath.Join(t.TempDir(), "dup.toml")), a.Fingerprint)
	wantExit(t, "a vote whose read since can be read two ways", code, exitOutcomeUnknown, out, errOut)
	if strings.Contains(out, idB) {
		t.Errorf("standard output holds the other activity %s:\n%s", idB, out)
	}
	if !strings.Contains(errOut, "read two ways") || !strings.Contains(errOut, "vigil activity get "+idA) {
		t.Errorf("standard error does not say the read can be read two ways and where to look:\n%s", errOut)
	}
}

// readTwoWays is the reply {"activity": other, "ACTIVITY": <reply's own
// activity>}: encoding/json decodes the second, jq reads the first.
func readTwoWays(t *testing.T, other json.RawMessage, reply []byte) []byte {
	return []byte(`{"activity":` + string(other) + `,"ACTIVITY":` + string(innerActivity(t, reply)) + `}`)
}

// answeredTwoWays is a config whose proxy answers op with readTwoWays.
func answeredTwoWays(t *testing.T, e *verbEnv, op string, other json.RawMessage) string {
	url := e.demo.Rewriting(func(o string, request, reply []byte) []byte {
		if o == op {
			return readTwoWays(t, other, reply)
		}
		return reply
	})
	return e.configVia(url, filepath.Join(t.TempDir(), "two-ways.toml"))
}

// innerActivity is the value of the "activity" key of a reply.
func innerActivity(t *testing.T, reply []byte) json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(reply, &m); err != nil {
		t.Fatal(err)
	}
	return m["activity"]
}
