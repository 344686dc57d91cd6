//go:build unix

package userfile

import (
	"os"
	"path/filepath"
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
