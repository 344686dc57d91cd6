//go:build unix

package userfile

import (
	"github.com/vigil-console/vigil/internal/shellword"

	"io/fs"
	"os"
	"regexp"
	"testing"
)

// followFix does what fix says to path ("chmod go-w PATH", "chmod o-w
// PATH, or …"), as a user would, failing the test when fix gives no chmod
// of path.
func followFix(t *testing.T, fix, path string) {
	t.Helper()
	m := regexp.MustCompile(`chmod ([go]+)-w ` + regexp.QuoteMeta(shellword.Quote(path)) + `(,|$)`).FindStringSubmatch(fix)
	if m == nil {
		t.Fatalf("fix %q: want a chmod of %s", fix, path)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	mode := fi.Mode() & (fs.ModePerm | fs.ModeSticky)
	for _, c := range m[1] {
		mode &^= map[rune]fs.FileMode{'g': 0o020, 'o': 0o002}[c]
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// mkdir makes the directory path with mode (set by chmod, past the umask).
func mkdir(t *testing.T, path string, mode fs.FileMode) string {
	t.Helper()
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
	return path
}

// writeFile writes a file with mode (set by chmod, past the umask) and
// returns what opening it gives.
func writeFile(t *testing.T, path string, mode fs.FileMode) fs.FileInfo {
	t.Helper()
	if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}
