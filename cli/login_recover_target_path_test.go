package cli

import (
	"os"
	"testing"

	"github.com/vigil-console/vigil/keys"
)

// --recover with --target-key given as the path of the kept key's .private
// file (not its name) must remove all of the kept key's files once the key
// is saved, as the name form does: a .public or .scheme left behind keeps
// the next login under that name from keeping its target key.
func TestRecoverWithTargetKeyPathDeletesAllItsFiles(t *testing.T) {
	e := newVerbEnv(t)
	act := lostOAuthLogin(t, e)
	store := keys.Store{Dir: e.demo.KeysDir}
	priv, pub, sch := store.Paths("lost-target")
	code, o, eo := e.run("", "login", "oauth", "--recover", act.ID, "--target-key", priv, "--name", "lost")
	wantExit(t, "login oauth --recover", code, 0, o, eo)
	for _, p := range []string{priv, pub, sch} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("after --recover --target-key %s saved the key, %s is still there\nstderr:\n%s", priv, p, eo)
		}
	}
	if _, err := store.Load("lost"); err != nil {
		t.Errorf("the recovered key: %v", err)
	}
	// The name is free for the next login's target key.
	r, err := store.Reserve("lost-target")
	if err != nil {
		t.Fatalf("the kept target key's name is still taken: %v", err)
	}
	r.Cancel()
}
