package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// completedAndOpen are an activity that completed at once and the
// activity of a tag still open for votes, as get_activity sends it.
func completedAndOpen(t *testing.T, e *verbEnv, tag string) (doneID, openID string, open json.RawMessage) {
	t.Helper()
	done, err := e.client("alice").CreateReadOnlySession(context.Background()) // completes at once
	if err != nil {
		t.Fatal(err)
	}
	openID, open = otherActivity(t, e, tag)
	return done.ID, openID, open
}

// 'activity wait --json' on a completed activity answered {"activity":
// <an open one>, "ACTIVITY": <the completed one>} exited 0 (COMPLETED, read
// by encoding/json) and printed the bytes, in which jq reads an activity
// still waiting for votes. Neither is decided on: exit 3, the end is not
// known, nothing printed.
func TestWaitJSONStatusReadTwoWaysIsNotDecidedOn(t *testing.T) {
	e := newVerbEnv(t)
	doneID, openID, open := completedAndOpen(t, e, "wait-two-ways")
	url := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		if op != "query/"+api.QueryGetActivity {
			return reply
		}
		return []byte(`{"activity":` + string(open) + `,"ACTIVITY":` + string(innerActivity(t, reply)) + `}`)
	})
	env := map[string]string{"VIGIL_CONFIG": e.configVia(url, filepath.Join(t.TempDir(), "ambiguous.toml"))}
	code, out, errOut := runVigil(t, env, "", "activity", "wait", "--json", doneID)
	wantExit(t, "a wait answered with a status read two ways", code, exitWaitFailed, out, errOut)
	if out != "" || strings.Contains(out, openID) {
		t.Errorf("standard output holds a reply that jq and vigil read differently:\n%s", out)
	}
	if !strings.Contains(errOut, "read two ways") || !strings.Contains(errOut, "vigil activity get "+doneID) {
		t.Errorf("standard error does not say the reply can be read two ways, and where to look:\n%s", errOut)
	}
}

// When only the final read is read two ways, the end seen (honestly) sets
// the exit status and the copy that showed it is what --json prints, as
// for any final read that fails.
func TestWaitJSONFinalReadReadTwoWaysPrintsTheCopySeen(t *testing.T) {
	e := newVerbEnv(t)
	doneID, openID, open := completedAndOpen(t, e, "wait-final-two-ways")
	var mu sync.Mutex
	reads := 0
	url := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		if op != "query/"+api.QueryGetActivity {
			return reply
		}
		mu.Lock()
		defer mu.Unlock()
		if reads++; reads == 1 { // the poll that sees the end
			return reply
		}
		return []byte(`{"activity":` + string(open) + `,"ACTIVITY":` + string(innerActivity(t, reply)) + `}`)
	})
	env := map[string]string{"VIGIL_CONFIG": e.configVia(url, filepath.Join(t.TempDir(), "final.toml"))}
	code, out, errOut := runVigil(t, env, "", "activity", "wait", "--json", doneID)
	wantExit(t, "a wait whose final read is read two ways", code, exitOK, out, errOut)
	if strings.Contains(out, openID) || !strings.Contains(out, doneID) {
		t.Errorf("standard output is not the copy of %s seen ending:\n%s", doneID, out)
	}
	if !strings.Contains(errOut, "read two ways") || !strings.Contains(errOut, "copy seen when it ended") {
		t.Errorf("standard error does not say the final read was read two ways and the copy seen is printed:\n%s", errOut)
	}
}

// An honest reply with fields vigil does not know is still printed as sent,
// with vigil's checks after it.
func TestWaitJSONHonestReplyIsPrintedAsSent(t *testing.T) {
	e := newVerbEnv(t)
	doneID, _, _ := completedAndOpen(t, e, "wait-honest")
	var mu sync.Mutex
	var sent []byte
	url := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		if op != "query/"+api.QueryGetActivity {
			return reply
		}
		mu.Lock()
		defer mu.Unlock()
		sent = bytes.Replace(reply, []byte(`{"activity":{`), []byte(`{"zNewField":{"Activity":1},"activity":{"zNew":true,`), 1)
		return sent
	})
	env := map[string]string{"VIGIL_CONFIG": e.configVia(url, filepath.Join(t.TempDir(), "honest.toml"))}
	code, out, errOut := runVigil(t, env, "", "activity", "wait", "--json", doneID)
	wantExit(t, "an honest reply", code, exitOK, out, errOut)
	mu.Lock()
	defer mu.Unlock()
	var want bytes.Buffer
	if err := json.Compact(&want, sent); err != nil || !bytes.Contains(sent, []byte("zNewField")) {
		t.Fatalf("the reply sent is not JSON with the new field (%v): %s", err, sent)
	}
	if asSent, _ := splitChecks(t, out); string(asSent) != want.String() {
		t.Errorf("standard output is not the reply as sent with the checks after it:\ngot  %s\nwant %s", asSent, want.String())
	}
}
