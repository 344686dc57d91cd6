package cli

import (
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
)

// A path flag written "~user/…" is that user's home directory, as the
// config's keys_dir reads it and a shell would have; an unknown user is
// refused naming the flag, never taken as a directory named "~user" in the
// working directory.
func TestPathFlagExpandsTildeUser(t *testing.T) {
	me, err := user.Current()
	if err != nil || me.Username == "" || !filepath.IsAbs(me.HomeDir) {
		t.Skipf("the current user has no name or absolute home directory: %v %+v", err, me)
	}
	c := proc{getenv: func(string) string { return "" }} // no HOME: "~user/" does not need it
	got, err := flagPath(c, "keys generate", "dir", "~"+me.Username+"/vigil-keys")
	if want := filepath.Join(me.HomeDir, "vigil-keys"); err != nil || got != want {
		t.Errorf("--dir=~%s/vigil-keys is %q (%v), want %q", me.Username, got, err, want)
	}

	const unknown = "vigil-no-such-user-x9"
	if _, err := user.Lookup(unknown); err == nil {
		t.Skipf("user %s exists here", unknown)
	}
	work := t.TempDir()
	t.Chdir(work)
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "HOME": t.TempDir()}
	code, out, errOut := runCLIEnv(env, "keys", "generate", "--dir=~"+unknown+"/vigil-keys", "ops")
	if code != exitUsage || !strings.Contains(errOut, "--dir") || !strings.Contains(errOut, unknown) || !strings.Contains(errOut, "no such user") {
		t.Errorf("an unknown user: exit %d, want %d and an error naming --dir, the user and that there is none:\n%s%s", code, exitUsage, out, errOut)
	}
	if _, err := os.Lstat(filepath.Join(work, "~"+unknown)); err == nil {
		t.Errorf("a directory named \"~%s\" was made in the working directory", unknown)
	}
}
