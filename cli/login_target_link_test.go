package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// login oauth deletes its --target-key once the new key is saved: the file
// opens the activity's credential bundle, which every member can read. A
// symbolic link or a second hard link to it would leave the file on disk
// after the deletion, so such a path is refused before anything is sent,
// and the target key can still be used by its own name.
func TestLoginRefusesATargetKeyWithAnotherName(t *testing.T) {
	e := newVerbEnv(t)
	for _, tc := range []struct {
		kind string
		link func(target, name string) error
		want string
	}{
		{"symbolic link", os.Symlink, "is a symbolic link"},
		{"hard link", os.Link, "has 2 names (hard links)"},
	} {
		target, token := e.signInAtProvider("carol")
		other := filepath.Join(t.TempDir(), "carol.target")
		if err := tc.link(target, other); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := e.run(token, "login", "oauth", "--profile", "carol", "--target-key", other, "--provider-token", "-", "--name", "carol-"+strings.Fields(tc.kind)[0])
		wantExit(t, tc.kind, code, exitUsage, out, errOut)
		if !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: %q; want it to say it %s", tc.kind, errOut, tc.want)
		}
		if _, err := os.Stat(target); err != nil {
			t.Fatalf("%s: the refused login lost the target key: %v", tc.kind, err)
		}
		// Given by its only name, the same target key logs in, and goes.
		if err := os.Remove(other); err != nil {
			t.Fatal(err)
		}
		code, out, errOut = e.run(token, "login", "oauth", "--profile", "carol", "--target-key", target, "--provider-token", "-", "--name", "carol-"+strings.Fields(tc.kind)[0])
		wantExit(t, tc.kind+", the file itself", code, 0, out, errOut)
		if _, err := os.Stat(target); err == nil {
			t.Errorf("%s: the target key %s is still on disk after the login", tc.kind, target)
		}
	}
}
