package cli

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// A login whose reply was lost keeps its fresh target key as NAME-target;
// --recover opens the bundle with it and saves NAME. The target key then has
// no use left but to open a bundle every member can read, so it must not stay
// on disk (nor block the next login's NAME-target), and the user is told.
func TestRecoverDeletesKeptTargetKeyOnceKeyIsSaved(t *testing.T) {
	e := newVerbEnv(t)
	act := lostOAuthLogin(t, e)
	code, o, eo := e.run("", "login", "oauth", "--recover", act.ID, "--target-key", "lost-target", "--name", "lost")
	wantExit(t, "login oauth --recover", code, 0, o, eo)
	store := keys.Store{Dir: e.demo.KeysDir}
	priv, pub, sch := store.Paths("lost-target")
	for _, p := range []string{priv, pub, sch} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("after --recover saved the key, the target key that opens its bundle is still on disk: %s\nstdout:\n%s\nstderr:\n%s", p, o, eo)
		}
	}
	if !strings.Contains(eo, "deleted the target key lost-target") {
		t.Errorf("--recover does not say it deleted the target key:\n%s", eo)
	}
	if _, err := store.Load("lost"); err != nil {
		t.Errorf("the recovered key: %v", err)
	}
}

// lostOAuthLogin runs carol's 'login oauth --name lost' behind a gateway
// that loses its reply (exit 4, the target key kept as lost-target) and
// returns the one oauth activity it recorded.
func lostOAuthLogin(t *testing.T, e *verbEnv) api.Activity {
	t.Helper()
	behindLossyGateway(t, e, -1)
	_, errOut, err := pasteLogin(t, e, "carol", func(c proc) error {
		return oauthLogin(context.Background(), c, []string{"--provider-token", "-", "--name", "lost", "--expiration", "3600"}, 0)
	})
	var errBuf bytes.Buffer
	errBuf.WriteString(errOut)
	if code := exitCode(&errBuf, err); code != exitOutcomeUnknown {
		t.Fatalf("exit %d: %s", code, errBuf.String())
	}
	acts := listOAuthActivities(t, e)
	if len(acts) != 1 {
		t.Fatalf("want one oauth activity: %+v", acts)
	}
	return acts[0]
}
