//go:build unix

package userfile

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The chmod vigil says to run must work when pasted into a shell as it is,
// for a directory whose name holds a space: unquoted, the shell would chmod
// two other names and leave the directory writable by others.
func TestDirExposureFixRunsInAShellForAPathWithASpace(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on this machine")
	}
	dir := mkdir(t, filepath.Join(t.TempDir(), "sp ace"), 0o777)
	di, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, fix := DirExposure(dir, di)
	cmd, ok := strings.CutPrefix(fix, "run: ")
	if !ok {
		t.Fatalf("fix %q: want a command to run", fix)
	}
	if out, err := exec.Command(sh, "-c", cmd).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cmd, err, out)
	}
	if di, err = os.Stat(dir); err != nil || di.Mode().Perm()&0o002 != 0 {
		t.Errorf("after %s, %s should no longer be writable by others: %v %v", cmd, dir, di.Mode(), err)
	}
}
