package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/internal/fifotest"
	"github.com/vigil-console/vigil/keys"
)

// A kept target key (NAME-target) that cannot be loaded (here mode 0644, as
// a copy or a restore leaves it) is reported with its reason and fix: read
// as a path instead, it was "missing", and the advice to make a new target
// key would give one that can never open the login's bundle.
func TestRecoverSaysWhyTheKeptTargetKeyCannotBeLoaded(t *testing.T) {
	store := keys.Store{Dir: t.TempDir()}
	if _, err := store.Generate("fresh-target", "p256"); err != nil {
		t.Fatal(err)
	}
	priv, _, _ := store.Paths("fresh-target")
	if err := os.Chmod(priv, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	_, _, err := loadRecoveryTarget(store, "fresh-target")
	if err == nil || !strings.Contains(err.Error(), "chmod 600 "+priv) {
		t.Errorf("the error does not say why the kept key cannot be loaded: %v", err)
	}
	if err != nil && strings.Contains(err.Error(), "oauth-nonce") {
		t.Errorf("the error sends the user to make a new target key: %v", err)
	}

	// Neither a kept key nor a file: both places are named.
	_, _, err = loadRecoveryTarget(store, "gone-target")
	gone, _, _ := store.Paths("gone-target")
	if err == nil || !strings.Contains(err.Error(), gone) || !strings.Contains(err.Error(), "no file gone-target") {
		t.Errorf("the error does not name both places looked in: %v", err)
	}
}

// --target-key FILE is a secret read as a key file is: a FIFO does not hang
// the login, a device is not read without end, and a file group or others
// may read is refused with the chmod that fixes it.
func TestTargetKeyFileIsReadAsAKeyFile(t *testing.T) {
	dir := t.TempDir()
	fifo := fifotest.Make(t, "carol.target")
	err := fifotest.Call(t, fifo, "loadTargetKey", func() error { _, err := loadTargetKey(fifo); return err })
	if err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a FIFO --target-key: %v, want it refused as not a regular file", err)
	}
	if _, err := loadTargetKey("/dev/zero"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("/dev/zero as --target-key: %v, want it refused", err)
	}

	open := filepath.Join(dir, "open.target")
	if err := os.WriteFile(open, []byte(strings.Repeat("11", 32)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := loadTargetKey(open); err == nil || !strings.Contains(err.Error(), "chmod 600 "+open) {
		t.Errorf("a world-readable --target-key: %v, want it refused with the chmod", err)
	}
	if err := os.Chmod(open, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := loadTargetKey(open); err != nil {
		t.Errorf("a 0600 --target-key: %v", err)
	}
}

// A --name that is a valid key name but leaves no room for "-target" is
// refused up front, saying so and before anything is sent, not with an
// error about a key name the user never gave.
func TestLoginNameMustLeaveRoomForTheKeptTargetKey(t *testing.T) {
	e := newVerbEnv(t)
	longest := strings.Repeat("n", keys.MaxNameLen-len("-target"))
	tooLong := longest + "n"
	code, out, errOut := e.run("", "login", "oauth", "--provider-token", "-", "--name", tooLong)
	wantExit(t, "login oauth --name of "+tooLong, code, 2, out, errOut)
	for _, want := range []string{"--name " + tooLong, "NAME-target", fmt.Sprintf("at most %d", len(longest))} {
		if !strings.Contains(errOut, want) {
			t.Errorf("the refusal does not say %q:\n%s", want, errOut)
		}
	}
	if acts := listOAuthActivities(t, e); len(acts) != 0 {
		t.Errorf("the refused login sent a request: %d oauth activities", len(acts))
	}
	_, errOut, err := pasteLogin(t, e, "carol", func(c proc) error {
		return oauthLogin(t.Context(), c, []string{"--provider-token", "-", "--name", longest, "--expiration", "3600"}, 0)
	})
	if err != nil {
		t.Errorf("login under the longest --name that leaves room (%d characters): %v\n%s", len(longest), err, errOut)
	}
}
