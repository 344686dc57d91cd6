package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// onlyKeyOf is the id of the demo member's one API key.
func (e *verbEnv) onlyKeyOf(name string) string {
	e.t.Helper()
	u, err := e.client("alice").GetUser(context.Background(), e.userID(name))
	if err != nil || len(u.APIKeys) != 1 {
		e.t.Fatalf("%s has one API key in the demo: %v %+v", name, err, u)
	}
	return u.APIKeys[0].APIKeyID
}

// vigil apikey delete warns before submitting a deletion that would leave the
// root quorum (2 of alice, bob, carol) with too few members able to sign, and
// does not say the service fails one that leaves it enough (it says only that
// carol is left with no vote); the service then fails the first.
func TestAPIKeyDeleteWarnsWhenTheQuorumWouldBeLeftShort(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	code, out, errOut := e.run("", "apikey", "delete", "--yes", e.onlyKeyOf("carol"))
	wantExit(t, "delete carol's key", code, 0, out, errOut)
	if strings.Contains(errOut, "FAIL") {
		t.Errorf("deleting carol's key leaves alice and bob, the threshold, yet the CLI says the service fails it:\n%s", errOut)
	}
	code, out, errOut = e.run("", "activity", "approve", "--yes", "--profile", "bob", activityIDFrom(t, out))
	wantExit(t, "approve carol's deletion", code, 0, out, errOut)

	bobKey := e.onlyKeyOf("bob")
	code, out, errOut = e.run("", "apikey", "delete", "--yes", bobKey)
	wantExit(t, "delete bob's key", code, 0, out, errOut)
	for _, want := range []string{"warning: the service will FAIL this deletion", "bob (" + e.userID("bob") + ")", "threshold of 2"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("deleting bob's last key: stderr lacks %q:\n%s", want, errOut)
		}
	}
	id := activityIDFrom(t, out)
	code, out, errOut = e.run("", "activity", "approve", "--yes", "--profile", "bob", id)
	wantExit(t, "approve bob's deletion (it runs and fails)", code, 1, out, errOut)
	if !strings.Contains(errOut, "FAILED: deleting these keys would leave root quorum member bob") {
		t.Errorf("approving bob's deletion: stderr does not give the service's reason:\n%s", errOut)
	}
	a, err := e.client("alice").GetActivity(ctx, id)
	if err != nil || a.Status != api.StatusFailed {
		t.Fatalf("the deletion the CLI warned about: %v %+v, want FAILED", err, a)
	}
	if _, err := e.client("alice").GetAPIKey(ctx, bobKey); err != nil {
		t.Errorf("bob's key after the failed deletion: %v", err)
	}
}
