package cli

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A get_activity reply about another activity does not end `vigil activity
// wait` on that activity's status, nor show as the activity asked for.
func TestActivityReadAnsweredWithAnotherActivityIsRefused(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	alice := e.demo.Client("alice")
	done, err := alice.CreateReadOnlySession(ctx) // completes at once
	if err != nil {
		t.Fatal(err)
	}
	pending, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "bound-wait", UserIDs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var first []byte
	url := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		if op != "query/"+api.QueryGetActivity {
			return reply
		}
		mu.Lock()
		defer mu.Unlock()
		if first == nil {
			first = reply
		}
		return first
	})
	env := map[string]string{"VIGIL_CONFIG": e.configVia(url, filepath.Join(t.TempDir(), "proxy.toml"))}
	code, out, errOut := runVigil(t, env, "", "activity", "get", done.ID)
	wantExit(t, "get the completed activity", code, exitOK, out, errOut)
	code, out, errOut = runVigil(t, env, "", "activity", "wait", pending.ID)
	wantExit(t, "wait for the pending activity", code, exitWaitFailed, out, errOut)
	if !strings.Contains(errOut, "another activity") {
		t.Errorf("stderr does not say the reply is about another activity:\n%s", errOut)
	}
	code, out, _ = runVigil(t, env, "", "activity", "get", pending.ID)
	if code == exitOK {
		t.Errorf("activity get %s answered about %s exits 0:\n%s", pending.ID, done.ID, out)
	}
}
