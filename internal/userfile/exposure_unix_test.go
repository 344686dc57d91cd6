//go:build unix

package userfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ownedBy is what opening a file owned by uid would give, so the owner rule
// is tested without root (which a real chown needs).
type ownedBy struct {
	uid  uint32
	mode fs.FileMode
}

func (f ownedBy) Name() string       { return "config.toml" }
func (f ownedBy) Size() int64        { return 0 }
func (f ownedBy) Mode() fs.FileMode  { return f.mode }
func (f ownedBy) ModTime() time.Time { return time.Time{} }
func (f ownedBy) IsDir() bool        { return false }
func (f ownedBy) Sys() any           { return &syscall.Stat_t{Uid: f.uid} }

// A file owned by another user is refused whatever its mode (its owner may
// chmod and rewrite it), naming the owner and what to do; one owned by the
// user running vigil or by root is fine.
func TestFileOwnedByAnotherUserIsExposed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	other := uint32(os.Geteuid() + 1)
	who, fix := Exposure(path, ownedBy{uid: other, mode: 0o644})
	if !strings.Contains(who, "owned by") || !strings.Contains(who, "uid "+strconv.Itoa(int(other))) ||
		!strings.Contains(fix, "copy it to a file of your own") || !strings.Contains(fix, ownerAdvice(path)) {
		t.Errorf("a file of uid %d: %q; %q; want it refused naming the owner, with the copy or %q", other, who, fix, ownerAdvice(path))
	}
	for _, uid := range []uint32{uint32(os.Geteuid()), 0} {
		if who, _ := Exposure(path, ownedBy{uid: uid, mode: 0o644}); who != "" {
			t.Errorf("a file of uid %d (mode 0644): %q; want it taken", uid, who)
		}
	}
}

// A file in a directory group or others may write can be replaced by them
// (a rename over it): refused unless the directory is sticky, as /tmp is,
// or only its group may write and that group is the user's private one (as
// umask 002 leaves every directory on Debian).
func TestFileInADirectoryOthersMayWriteIsExposed(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o700) })
	di, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	gid, _ := group(di)
	for mode, refused := range map[fs.FileMode]bool{0o777: true, 0o770: !privateGroup(gid), 0o755: false, 0o777 | fs.ModeSticky: false} {
		if err := os.Chmod(dir, mode); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		who, fix := Exposure(path, fi)
		if refused != (who != "") {
			t.Errorf("directory mode %v: %q; want refused %v", mode, who, refused)
		}
		if refused {
			if !strings.Contains(who, "directory "+dir) {
				t.Errorf("directory mode %v: %q; want the directory named", mode, who)
			}
			followFix(t, fix, dir)
			if who, _ := Exposure(path, fi); who != "" {
				t.Errorf("directory mode %v, after %q: %q; want it taken", mode, fix, who)
			}
		}
	}
}

// Group write on a directory whose group is not the user's private one
// (another group, whose members could replace the file) is refused. Only
// root can give a directory to a group it is not in.
func TestFileInADirectoryAnotherGroupMayWriteIsExposed(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give the directory to another group")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(dir, 0, 65534); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o770); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if who, _ := Exposure(path, fi); who == "" {
		t.Errorf("a directory group 65534 may write: taken; its members could replace %s", path)
	}
	if err := os.Chown(dir, 0, os.Getegid()); err != nil {
		t.Fatal(err)
	}
	if privateGroup(os.Getegid()) {
		if who, _ := Exposure(path, fi); who != "" {
			t.Errorf("a directory only the user's private group may write: %q; want it taken", who)
		}
	}
}

// A file group may write is no exposure when the group is the user's
// private one (umask 002 makes every file so), as for its directory; any
// other group's members could rewrite it, and so could others.
func TestFileGroupMayWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	fi := writeFile(t, path, 0o664)
	gid, _ := group(fi)
	if who, _ := Exposure(path, fi); (who != "") != !privateGroup(gid) {
		t.Errorf("a file of mode 0664 whose group (gid %d) is private %v: %q", gid, privateGroup(gid), who)
	}
	fi = writeFile(t, path, 0o666)
	who, fix := Exposure(path, fi)
	if !strings.Contains(who, "others") {
		t.Fatalf("a file of mode 0666: %q; want it refused as writable by others", who)
	}
	followFix(t, fix, path)
	if fi, err := os.Stat(path); err != nil {
		t.Fatal(err)
	} else if who, _ := Exposure(path, fi); who != "" && privateGroup(gid) {
		t.Errorf("after %q: %q; want it taken", fix, who)
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root to give the file to another group")
	}
	if err := os.Chown(path, os.Geteuid(), 65534); err != nil {
		t.Fatal(err)
	}
	fi = writeFile(t, path, 0o664)
	who, fix = Exposure(path, fi)
	if !strings.Contains(who, "65534") {
		t.Fatalf("a file group 65534 may write: %q; want it refused naming the group", who)
	}
	followFix(t, fix, path)
	if fi, err := os.Stat(path); err != nil {
		t.Fatal(err)
	} else if who, _ := Exposure(path, fi); who != "" {
		t.Errorf("after %q: %q; want it taken", fix, who)
	}
}

// ownerAdvice is what the advice for path, another user's, must hold: the
// chown that gives it to the user; run as root, where that chown would take
// it from its owner (who could no longer read it), running vigil as them.
func ownerAdvice(path string) string {
	if os.Geteuid() == 0 {
		return "sudo -u "
	}
	return "chown " + strconv.Itoa(os.Geteuid()) + " " + path
}

// Run as root (a container given a user's files by a bind mount, sudo
// keeping HOME), a file or directory of another user is refused, but the
// advice never gives it to root: its owner would be locked out of it.
func TestRootIsNotToldToTakeAUsersFile(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("the advice differs only for root")
	}
	path := filepath.Join(t.TempDir(), "keys")
	for what, exposure := range map[string]func(string, fs.FileInfo) (string, string){"file": Exposure, "directory": DirExposure} {
		who, fix := exposure(path, ownedBy{uid: 65534, mode: 0o700})
		if who == "" || strings.Contains(fix, "chown 0 ") || !strings.Contains(fix, "sudo -u ") {
			t.Errorf("a %s of uid 65534, as root: %q; %q; want the advice to run vigil as its owner, not to chown it to root", what, who, fix)
		}
	}
}
