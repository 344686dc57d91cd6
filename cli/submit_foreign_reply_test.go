package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// replayingFirstSubmit is a config whose service answers every submit after
// the first with the first one's 200, as a stale cache or a broken gateway
// would.
func replayingFirstSubmit(t *testing.T, e *verbEnv) map[string]string {
	var mu sync.Mutex
	var first []byte
	url := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		if !strings.HasPrefix(op, "submit/") {
			return reply
		}
		mu.Lock()
		defer mu.Unlock()
		if first == nil {
			first = reply
		}
		return first
	})
	return map[string]string{"VIGIL_CONFIG": e.configVia(url, filepath.Join(t.TempDir(), "proxy.toml"))}
}

// `vigil tag create` answered with another activity's 200 does not print that
// activity as its own and exit 0: the request was sent, and the reply does
// not say what became of it, so it is exit 4, "look before running again".
func TestTagCreateAnsweredWithAnotherActivityIsOutcomeUnknown(t *testing.T) {
	e := newVerbEnv(t)
	env := replayingFirstSubmit(t, e)
	code, out, errOut := runVigil(t, env, "", "tag", "create", "--name", "bound-first")
	wantExit(t, "first tag create", code, exitOK, out, errOut)
	code, out, errOut = runVigil(t, env, "", "tag", "create", "--name", "bound-second")
	wantExit(t, "second tag create", code, exitOutcomeUnknown, out, errOut)
	if strings.Contains(out, "bound-first") {
		t.Errorf("the first tag's activity is printed as the second's:\n%s", out)
	}
	if !strings.Contains(errOut, "another activity") {
		t.Errorf("stderr does not say the reply is about another activity:\n%s", errOut)
	}
}

// `vigil request` checks a submit's reply as the typed verbs do.
func TestRequestAnsweredWithAnotherActivityIsOutcomeUnknown(t *testing.T) {
	e := newVerbEnv(t)
	env := replayingFirstSubmit(t, e)
	code, out, errOut := runVigil(t, env, "", "tag", "create", "--name", "bound-req-first")
	wantExit(t, "first tag create", code, exitOK, out, errOut)
	body := fmt.Sprintf(`{"type":"ACTIVITY_TYPE_CREATE_USER_TAG","timestampMs":"%d","organizationId":%q,"parameters":{"userTagName":"bound-req-second","userIds":[]}}`,
		time.Now().UnixMilli(), e.demo.Info.OrganizationID)
	code, out, errOut = runVigil(t, env, "", "request", "--path", "/public/v1/submit/create_user_tag", "--body", body)
	wantExit(t, "request", code, exitOutcomeUnknown, out, errOut)
	if !strings.Contains(errOut, "another activity") {
		t.Errorf("stderr does not say the reply is about another activity:\n%s", errOut)
	}
}
