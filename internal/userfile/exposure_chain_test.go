//go:build unix

package userfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// config.toml -> W/hop -> R/real.toml: W, which anyone may write (no sticky
// bit), holds a link the path goes through; whoever writes W can point hop
// at a config of their own. Exposure checks the named directory and the
// final one only, so the config is taken.
func TestSymlinkHopInADirectoryOthersMayWriteIsExposed(t *testing.T) {
	base := t.TempDir()
	l, w, r := filepath.Join(base, "l"), filepath.Join(base, "w"), filepath.Join(base, "r")
	for _, d := range []string{l, w, r} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(w, 0o777); err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(r, "real.toml")
	if err := os.WriteFile(real, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, filepath.Join(w, "hop")); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(l, "config.toml")
	if err := os.Symlink(filepath.Join(w, "hop"), path); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if who, _ := Exposure(path, fi); who == "" {
		t.Fatalf("%s reaches its file through a link in %s (mode 0777, no sticky bit), which anyone may repoint; Exposure found no one who could change it", path, w)
	}
}

// The directories above each link and each link's target are checked too:
// config.toml -> W/x/hop -> R/real.toml, W writable by anyone (no sticky
// bit) above x, a directory of the user's holding the link; and a directory
// link L/d -> W/x, the config named as L/d/config.toml. Whoever writes W
// can put their own x in its place.
func TestSymlinkBelowADirectoryOthersMayWriteIsExposed(t *testing.T) {
	base := t.TempDir()
	l, w, r := mkdir(t, filepath.Join(base, "l"), 0o755), mkdir(t, filepath.Join(base, "w"), 0o777), mkdir(t, filepath.Join(base, "r"), 0o755)
	x := mkdir(t, filepath.Join(w, "x"), 0o755)
	real := filepath.Join(r, "real.toml")
	fi := writeFile(t, real, 0o600)
	if err := os.Symlink(real, filepath.Join(x, "hop")); err != nil {
		t.Fatal(err)
	}
	byLink := filepath.Join(l, "config.toml")
	if err := os.Symlink(filepath.Join(x, "hop"), byLink); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../w/x", filepath.Join(l, "d")); err != nil {
		t.Fatal(err)
	}
	byDir := filepath.Join(l, "d", "hop")
	for _, path := range []string{byLink, byDir} {
		if who, _ := Exposure(path, fi); !strings.Contains(who, "directory "+w) {
			t.Errorf("%s, reached through %s (mode 0777, no sticky bit): %q; want it refused naming %s", path, x, who, w)
		}
	}
}
