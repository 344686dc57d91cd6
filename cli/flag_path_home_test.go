package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/keys"
)

// runCLIEnv runs vigil with exactly env as its environment.
func runCLIEnv(env map[string]string, args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	c := proc{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(k string) string { return env[k] }}
	code := run(context.Background(), c, args)
	return code, out.String(), errOut.String()
}

// Shells leave a "~" after "=" as it is: --dir=~/vigil-keys must mean the
// home directory, as keys_dir = "~/vigil-keys" does, never a directory
// named "~" in the working directory; without HOME it is refused.
func TestKeysDirFlagExpandsHome(t *testing.T) {
	work := t.TempDir()
	t.Chdir(work)
	home := t.TempDir()
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "HOME": home}
	code, out, errOut := runCLIEnv(env, "keys", "generate", "--dir=~/vigil-keys", "ops")
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	if _, err := (keys.Store{Dir: filepath.Join(home, "vigil-keys")}).Load("ops"); err != nil {
		t.Errorf("the key is not in $HOME/vigil-keys: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(work, "~")); err == nil {
		t.Errorf("a directory named \"~\" was made in the working directory")
	}

	delete(env, "HOME")
	code, out, errOut = runCLIEnv(env, "keys", "generate", "--dir=~/vigil-keys", "bot")
	if code != exitUsage || !strings.Contains(errOut, "HOME") || !strings.Contains(errOut, "--dir") {
		t.Errorf("without HOME: exit %d, want %d and an error naming --dir and HOME:\n%s%s", code, exitUsage, out, errOut)
	}
	if _, err := os.Lstat(filepath.Join(work, "~")); err == nil {
		t.Errorf("without HOME, a directory named \"~\" was made in the working directory")
	}
}

// The same for the secret target key login oauth-nonce writes.
func TestTargetKeyFlagExpandsHome(t *testing.T) {
	work := t.TempDir()
	t.Chdir(work)
	if err := os.Mkdir(filepath.Join(work, "~"), 0o700); err != nil { // as a first mistake would leave it
		t.Fatal(err)
	}
	home := t.TempDir()
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "HOME": home}
	code, out, errOut := runCLIEnv(env, "login", "oauth-nonce", "--target-key=~/carol.target")
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(home, "carol.target")); err != nil {
		t.Errorf("the target key is not in $HOME: %v", err)
	}
	if _, err := os.Stat(filepath.Join(work, "~", "carol.target")); err == nil {
		t.Errorf("the target key was written under the directory named \"~\" in the working directory")
	}

	delete(env, "HOME")
	code, out, errOut = runCLIEnv(env, "login", "oauth-nonce", "--target-key=~/dave.target")
	if code != exitUsage || !strings.Contains(errOut, "HOME") || !strings.Contains(errOut, "--target-key") {
		t.Errorf("without HOME: exit %d, want %d and an error naming --target-key and HOME:\n%s%s", code, exitUsage, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(work, "~", "dave.target")); err == nil {
		t.Errorf("without HOME, the target key was written under the directory named \"~\"")
	}
}
