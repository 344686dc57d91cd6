//go:build unix

package userfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A home (or any directory) inside a directory others may write, without
// the sticky bit: they can rename it away and put their own, holding their
// own config, in its place. The config is refused naming that directory,
// however deep below it the file is, and the chmod given fixes it.
func TestParentOthersMayWriteIsExposed(t *testing.T) {
	w := mkdir(t, filepath.Join(t.TempDir(), "w"), 0o777)
	home := mkdir(t, filepath.Join(w, "home"), 0o755)
	dir := mkdir(t, filepath.Join(mkdir(t, filepath.Join(home, ".config"), 0o755), "vigil"), 0o755)
	path := filepath.Join(dir, "config.toml")
	fi := writeFile(t, path, 0o600)
	who, fix := Exposure(path, fi)
	if !strings.Contains(who, "directory "+w) || !strings.Contains(who, "others") {
		t.Fatalf("a config below %s (mode 0777, not sticky): %q; want it refused naming that directory and who may write it", w, who)
	}
	followFix(t, fix, w)
	if who, _ := Exposure(path, fi); who != "" {
		t.Errorf("after %q: %q; want it taken", fix, who)
	}
	// Sticky, as /tmp is: only the owner of home (the user) may rename it.
	if err := os.Chmod(w, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	if who, _ := Exposure(path, fi); who != "" {
		t.Errorf("below a sticky directory others may write, in a directory of the user's: %q; want it taken", who)
	}
}

// Group write on a parent is refused unless the group is the user's
// private one, as for the file's own directory.
func TestParentGroupMayWrite(t *testing.T) {
	g := mkdir(t, filepath.Join(t.TempDir(), "g"), 0o775)
	dir := mkdir(t, filepath.Join(g, "d"), 0o755)
	path := filepath.Join(dir, "config.toml")
	fi := writeFile(t, path, 0o600)
	gi, err := os.Stat(g)
	if err != nil {
		t.Fatal(err)
	}
	gid, _ := group(gi)
	if who, _ := Exposure(path, fi); (who != "") != !privateGroup(gid) {
		t.Errorf("below a directory of mode 0775 whose group (gid %d) is private %v: %q", gid, privateGroup(gid), who)
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root to give the directory to another group")
	}
	if err := os.Chown(g, os.Geteuid(), 65534); err != nil {
		t.Fatal(err)
	}
	who, fix := Exposure(path, fi)
	if !strings.Contains(who, "directory "+g) || !strings.Contains(who, "65534") {
		t.Fatalf("below a directory group 65534 may write: %q; want it refused naming the directory and the group", who)
	}
	followFix(t, fix, g)
	if who, _ := Exposure(path, fi); who != "" {
		t.Errorf("after %q: %q; want it taken", fix, who)
	}
}

// A parent owned by another user, even one only its owner may write: they
// may chmod it and replace what it holds.
func TestParentOfAnotherUserIsExposed(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give the directory to another user")
	}
	theirs := mkdir(t, filepath.Join(t.TempDir(), "theirs"), 0o755)
	dir := mkdir(t, filepath.Join(theirs, "mine"), 0o700)
	path := filepath.Join(dir, "config.toml")
	fi := writeFile(t, path, 0o600)
	if err := os.Chown(theirs, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if who, fix := Exposure(path, fi); !strings.Contains(who, "directory "+theirs) || !strings.Contains(who, "uid 65534") || !strings.Contains(fix, "move it") {
		t.Errorf("below a directory of uid 65534: %q; %q; want it refused naming the directory, its owner, and to move the file", who, fix)
	}
}

// In a sticky directory others may write (/tmp), only an entry's owner may
// replace it: a directory or a symbolic link there owned by another user
// is theirs to swap, though the directory they lead to is the user's.
func TestStickyDirectoryEntryOfAnotherUserIsExposed(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give an entry to another user")
	}
	base := t.TempDir()
	sticky := mkdir(t, filepath.Join(base, "sticky"), 0o777|os.ModeSticky)
	dir := mkdir(t, filepath.Join(base, "mine"), 0o700)
	fi := writeFile(t, filepath.Join(dir, "config.toml"), 0o600)
	link := filepath.Join(sticky, "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(link, "config.toml")
	if who, _ := Exposure(path, fi); who != "" {
		t.Fatalf("through a link of the user's in a sticky directory: %q; want it taken", who)
	}
	if err := os.Lchown(link, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if who, fix := Exposure(path, fi); !strings.Contains(who, link) || !strings.Contains(who, "uid 65534") || !strings.Contains(fix, "move it") {
		t.Errorf("through a link of uid 65534 in a sticky directory others may write: %q; %q; want it refused naming the link and its owner", who, fix)
	}
}

// The common places a config lives are taken: under the home directory as
// umask 022 or 002 (user private groups) leave it, and in a directory the
// user made under the sticky /tmp (t.TempDir is one).
func TestCommonPlacesAreNotExposed(t *testing.T) {
	tmp := t.TempDir()
	for _, c := range []struct {
		umask        string
		dir, file    os.FileMode
		privateGroup bool
	}{{"022", 0o755, 0o644, false}, {"002", 0o775, 0o664, true}} {
		home := mkdir(t, filepath.Join(tmp, "home"+c.umask), c.dir)
		dir := mkdir(t, filepath.Join(mkdir(t, filepath.Join(home, ".config"), c.dir), "vigil"), c.dir)
		path := filepath.Join(dir, "config.toml")
		fi := writeFile(t, path, c.file)
		gid, _ := group(fi)
		if c.privateGroup && !privateGroup(gid) {
			continue // this user has no private group: umask 002 would expose it
		}
		if who, _ := Exposure(path, fi); who != "" {
			t.Errorf("umask %s: ~/.config/vigil/config.toml %q; want it taken", c.umask, who)
		}
	}
	path := filepath.Join(tmp, "config.toml")
	if who, _ := Exposure(path, writeFile(t, path, 0o600)); who != "" {
		t.Errorf("a config in a directory of the user's below %s: %q; want it taken", os.TempDir(), who)
	}
}
