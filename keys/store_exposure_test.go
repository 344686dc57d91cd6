//go:build unix

package keys

import (
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// sharedDir is a keys directory of mode perm (set past the umask) holding
// key "ops", saved while it was still the user's alone.
func sharedDir(t *testing.T, perm os.FileMode) (Store, *Key) {
	t.Helper()
	s := Store{Dir: filepath.Join(t.TempDir(), "keys")}
	k, err := s.Generate("ops", "p256")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(s.Dir, perm); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(s.Dir, 0o700) })
	return s, k
}

// In a keys directory others may write (mode 0777, or 1777: sticky, where
// they may still add the files a key lacks), any local user could remove a
// key or put a link to another of the user's keys in its place. Nothing is
// saved there, and no key is loaded or listed from it; the refusal names
// the directory and the chmod that fixes it.
func TestKeysDirOthersMayWriteIsRefused(t *testing.T) {
	for _, perm := range []os.FileMode{0o777, 0o777 | os.ModeSticky, 0o707} {
		s, _ := sharedDir(t, perm)
		if fi, err := os.Stat(s.Dir); err != nil || fi.Mode()&(os.ModeSticky|os.ModePerm) != perm {
			t.Fatalf("chmod %v: %v, %v", perm, fi.Mode(), err)
		}
		fix := "-w " + s.Dir
		if _, err := s.Generate("new", "p256"); err == nil || !strings.Contains(err.Error(), fix) {
			t.Errorf("mode %v: Generate = %v; want it refused, saying %q", perm, err, fix)
		}
		if priv, _, _ := s.Paths("new"); fileExists(priv) {
			t.Errorf("mode %v: a refused save left %s", perm, priv)
		}
		if _, err := s.Load("ops"); err == nil || !strings.Contains(err.Error(), fix) {
			t.Errorf("mode %v: Load = %v; want it refused, saying %q", perm, err, fix)
		}
		if _, err := s.List(); err == nil || !strings.Contains(err.Error(), fix) {
			t.Errorf("mode %v: List = %v; want it refused, saying %q", perm, err, fix)
		}
	}
}

// Once the directory is the user's again, the key loads: the check refuses
// the directory, not the key.
func TestKeysDirMadePrivateAgainLoads(t *testing.T) {
	s, k := sharedDir(t, 0o777)
	if _, err := s.Load("ops"); err == nil {
		t.Fatal("Load from a 0777 directory succeeded")
	}
	os.Chmod(s.Dir, 0o700)
	got, err := s.Load("ops")
	if err != nil || got.PublicKeyHex() != k.PublicKeyHex() {
		t.Fatalf("Load after chmod 700: %v", err)
	}
}

// A keys directory the user's private group may write (umask 002, the
// default on Debian and Ubuntu) is no exposure, as for the config.
func TestKeysDirOfUsersPrivateGroupLoads(t *testing.T) {
	u, err := user.Current()
	if err != nil {
		t.Skip(err)
	}
	g, err := user.LookupGroupId(strconv.Itoa(os.Getegid()))
	if err != nil || g.Name != u.Username {
		t.Skipf("the user's group is not a private group (%v)", err)
	}
	s, k := sharedDir(t, 0o775)
	if err := os.Chown(s.Dir, os.Geteuid(), os.Getegid()); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Load("ops"); err != nil || got.PublicKeyHex() != k.PublicKeyHex() {
		t.Errorf("Load from a 0775 directory of the user's private group: %v", err)
	}
	if _, err := s.Generate("new", "p256"); err != nil {
		t.Errorf("Generate into a 0775 directory of the user's private group: %v", err)
	}
}

// A keys directory another user owns (one they made first at a --dir path)
// is theirs to empty or fill: refused, naming the owner. Giving a
// directory away needs root.
func TestKeysDirOfAnotherUserIsRefused(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("chown to another user needs root")
	}
	s, _ := sharedDir(t, 0o700)
	if err := os.Chown(s.Dir, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Generate("new", "p256"); err == nil || !strings.Contains(err.Error(), "uid 65534") {
		t.Errorf("Generate into a directory of uid 65534 = %v; want it refused, naming the owner", err)
	}
	if _, err := s.Load("ops"); err == nil || !strings.Contains(err.Error(), "uid 65534") {
		t.Errorf("Load from a directory of uid 65534 = %v; want it refused, naming the owner", err)
	}
}

// A private key file another user owns is theirs to rewrite or read: Load
// refuses it, as the file actually opened says, and List shows it so.
func TestPrivateFileOfAnotherUserIsRefused(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("chown to another user needs root")
	}
	s, _ := sharedDir(t, 0o700)
	priv, _, _ := s.Paths("ops")
	if err := os.Chown(priv, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load("ops"); err == nil || !strings.Contains(err.Error(), "uid 65534") {
		t.Errorf("Load of a key file of uid 65534 = %v; want it refused, naming the owner", err)
	}
	list, err := s.List()
	if err != nil || len(list) != 1 || list[0].Problem == nil {
		t.Errorf("List = %+v, %v; want ops listed with its problem", list, err)
	}
}

// A .private that is a link to another of the user's keys (prod's, mode
// 0600, in a private directory) would make vigil stamp with that key under
// the name of this one: refused, although every directory on the way is the
// user's own.
func TestSymlinkedPrivateFileIsRefused(t *testing.T) {
	s, _, prod, priv := opsLinkedToProd(t, os.Symlink)
	k, err := s.Load("ops")
	if err == nil {
		t.Fatalf("Load(ops) through a link to prod's key file succeeded (prod's key: %v)", k.PublicKeyHex() == prod.PublicKeyHex())
	}
	if !strings.Contains(err.Error(), "symbolic link") || !strings.Contains(err.Error(), priv) {
		t.Errorf("Load error %q does not say %s is a link", err, priv)
	}
	list, err := s.List()
	if err != nil || len(list) != 1 || list[0].Problem == nil {
		t.Errorf("List = %+v, %v; want ops listed with its problem", list, err)
	}
}

// 'vigil keys list' is where a user sees which keys work: a key whose
// private file group or others may read, which Load refuses, is listed with
// that problem and the chmod that fixes it.
func TestListShowsPrivateFileOthersMayRead(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	if _, err := s.Generate("ops", "p256"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Generate("ci", "ed25519"); err != nil {
		t.Fatal(err)
	}
	priv, _, _ := s.Paths("ops")
	if err := os.Chmod(priv, 0o644); err != nil {
		t.Fatal(err)
	}
	_, loadErr := s.Load("ops")
	if loadErr == nil {
		t.Fatal("Load accepted a 0644 key file")
	}
	list, err := s.List()
	if err != nil || len(list) != 2 {
		t.Fatalf("List = %+v, %v", list, err)
	}
	if list[0].Name != "ci" || list[0].Problem != nil {
		t.Errorf("List ci = %+v; want it listed as usable", list[0])
	}
	fix := "chmod 600 " + priv
	if list[1].Name != "ops" || list[1].Problem == nil || !strings.Contains(list[1].Problem.Error(), fix) {
		t.Errorf("List ops = %+v; Load refuses it (%v): want its problem, saying %q", list[1], loadErr, fix)
	}
}

// A key file of two lines (a key appended with >> in a rotation, two files
// concatenated) is refused rather than read as its first line, which would
// stamp with the old key; the error quotes neither line.
func TestKeyFileOfTwoLinesIsRefused(t *testing.T) {
	newer, err := Generate("p256")
	if err != nil {
		t.Fatal(err)
	}
	for _, which := range []string{"private", "public", "scheme"} {
		s := Store{Dir: t.TempDir()}
		old, err := s.Generate("ops", "p256")
		if err != nil {
			t.Fatal(err)
		}
		priv, pub, sch := s.Paths("ops")
		path, extra := priv, newer.PrivateKeyHex()
		switch which {
		case "public":
			path, extra = pub, newer.PublicKeyHex()
		case "scheme":
			path, extra = sch, SchemeEd25519
		}
		if which == "private" {
			os.Remove(pub) // else the .public mismatch would refuse it anyway
		}
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(extra + "\n")
		f.Close()
		k, err := s.Load("ops")
		if err == nil {
			t.Errorf(".%s of two lines: Load succeeded (the old key: %v)", which, k.PublicKeyHex() == old.PublicKeyHex())
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, path) || !strings.Contains(msg, "more than one line") {
			t.Errorf(".%s of two lines: Load error %q does not name %s and what is wrong", which, msg, path)
		}
		for _, secret := range []string{old.PrivateKeyHex(), newer.PrivateKeyHex()} {
			if strings.Contains(msg, secret) {
				t.Errorf(".%s of two lines: Load error quotes a private key: %q", which, msg)
			}
		}
		if which != "private" {
			if _, err := s.Info("ops"); err == nil {
				t.Errorf(".%s of two lines: Info succeeded", which)
			}
		}
		list, err := s.List()
		if err != nil || len(list) != 1 || list[0].Problem == nil {
			t.Errorf(".%s of two lines: List = %+v, %v; want ops listed with its problem", which, list, err)
		}
	}
}

// opsLinkedToProd makes ops.private, in a store of its own, another name
// for prod's key file in a second store of the user's (link is os.Link or
// os.Symlink): every directory on the way is the user's, so only the link
// itself can be refused. It returns both stores, prod's key and the link.
func opsLinkedToProd(t *testing.T, link func(oldname, newname string) error) (s, own Store, prod *Key, priv string) {
	t.Helper()
	root := t.TempDir()
	s = Store{Dir: filepath.Join(root, "ops")}
	own = Store{Dir: filepath.Join(root, "own")}
	if _, err := s.Generate("ops", "p256"); err != nil {
		t.Fatal(err)
	}
	prod, err := own.Generate("prod", "p256")
	if err != nil {
		t.Fatal(err)
	}
	priv, pub, _ := s.Paths("ops")
	prodPriv, _, _ := own.Paths("prod")
	os.Remove(priv)
	os.Remove(pub)
	if err := link(prodPriv, priv); err != nil {
		t.Fatal(err)
	}
	return s, own, prod, priv
}
