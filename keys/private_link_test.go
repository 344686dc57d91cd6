//go:build unix

package keys

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A .private that is a hard link to another of the user's keys (same
// owner, mode 0600, a plain file in the keys directory) would make vigil
// stamp with that key under the name of this one, as a symbolic link
// would: refused, saying what it is and how to make it a file of its own.
func TestHardLinkedPrivateFileIsRefused(t *testing.T) {
	s, own, prod, priv := opsLinkedToProd(t, os.Link)
	k, err := s.Load("ops")
	if err == nil {
		t.Fatalf("Load(ops) through a hard link to prod's key file succeeded (prod's key: %v)", k.PublicKeyHex() == prod.PublicKeyHex())
	}
	if msg := err.Error(); !strings.Contains(msg, priv) || !strings.Contains(msg, "hard link") || !strings.Contains(msg, "cp -p") {
		t.Errorf("Load error %q does not say %s is a hard link and how to copy it", msg, priv)
	}
	if _, err := s.Info("ops"); err == nil {
		t.Error("Info (keys show) of a hard-linked key file succeeded")
	}
	if list, err := s.List(); err != nil || len(list) != 1 || list[0].Problem == nil {
		t.Errorf("List = %+v, %v; want ops listed with its problem", list, err)
	}
	// prod itself has two names now: it is refused too, until one goes.
	if _, err := own.Load("prod"); err == nil {
		t.Error("Load(prod), a file of two names, succeeded")
	}
	if err := os.Remove(priv); err != nil {
		t.Fatal(err)
	}
	if _, err := own.Load("prod"); err != nil {
		t.Errorf("Load(prod) once the other name is removed: %v", err)
	}
}

// vaultKey is key "ops" of a store under a fresh directory, its private
// key file moved into vault (made with mode 0700 under the same directory)
// and linked from the store by a symbolic link to the path at, relative to
// that directory (the file lives at vault/ops.private).
func vaultKey(t *testing.T, vault, at string) (Store, *Key, string) {
	t.Helper()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, vault), 0o700); err != nil {
		t.Fatal(err)
	}
	s := Store{Dir: filepath.Join(root, "keys")}
	k, err := s.Generate("ops", "p256")
	if err != nil {
		t.Fatal(err)
	}
	priv, _, _ := s.Paths("ops")
	if err := os.Rename(priv, filepath.Join(root, vault, "ops.private")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, at), priv); err != nil {
		t.Fatal(err)
	}
	return s, k, root
}

// A key kept on an encrypted or removable volume and linked into the keys
// directory, every directory on the way the user's own: no one but the user
// (or root) could change where the link leads, so the key loads, and keys
// show and keys list describe it.
func TestPrivateLinkedFromUsersOwnVolumeLoads(t *testing.T) {
	s, k, _ := vaultKey(t, "vault", "vault/ops.private")
	got, err := s.Load("ops")
	if err != nil {
		t.Fatalf("Load of a key linked from the user's own 0700 directory: %v", err)
	}
	if got.PublicKeyHex() != k.PublicKeyHex() {
		t.Fatal("Load through the link gave another key")
	}
	if info, err := s.Info("ops"); err != nil || info.PublicKeyHex != k.PublicKeyHex() {
		t.Errorf("Info = %+v, %v; want the key's public key", info, err)
	}
	if list, err := s.List(); err != nil || len(list) != 1 || list[0].Problem != nil {
		t.Errorf("List = %+v, %v; want ops listed as usable", list, err)
	}
}

// A link whose way leads through a directory others may write (the volume
// itself, or a link found in such a directory on the way) could be pointed
// at another key by them: refused, naming that directory and its chmod.
func TestPrivateLinkedThroughExposedDirIsRefused(t *testing.T) {
	for _, c := range []struct{ name, vault, at, exposed string }{
		{"volume", "vault", "vault/ops.private", "vault"},
		{"hop", "vault", "shared/v/ops.private", "shared"},
	} {
		s, _, root := vaultKey(t, c.vault, c.at)
		if c.name == "hop" {
			if err := os.Mkdir(filepath.Join(root, "shared"), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(root, "vault"), filepath.Join(root, "shared", "v")); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.Load("ops"); err != nil {
			t.Fatalf("%s: Load before any directory is exposed: %v", c.name, err)
		}
		dir := filepath.Join(root, c.exposed)
		if err := os.Chmod(dir, 0o777); err != nil {
			t.Fatal(err)
		}
		_, err := s.Load("ops")
		if err == nil || !strings.Contains(err.Error(), "o-w "+dir) {
			t.Errorf("%s: Load with %s mode 0777 on the way = %v; want it refused, naming that directory's chmod", c.name, dir, err)
		}
		if _, err := s.Info("ops"); err == nil {
			t.Errorf("%s: Info with %s mode 0777 on the way succeeded", c.name, dir)
		}
		os.Chmod(dir, 0o700)
	}
}

// A link to another key of the same store (ops.private -> prod.private)
// would stamp with prod's key as ops: refused, naming prod's file.
func TestPrivateLinkedToAnotherKeyOfTheStoreIsRefused(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	if _, err := s.Generate("ops", "p256"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Generate("prod", "p256"); err != nil {
		t.Fatal(err)
	}
	priv, pub, sch := s.Paths("ops")
	for _, p := range []string{priv, pub, sch} {
		os.Remove(p)
	}
	if err := os.Symlink("prod.private", priv); err != nil {
		t.Fatal(err)
	}
	prodPriv, _, _ := s.Paths("prod")
	_, err := s.Load("ops")
	if err == nil || !strings.Contains(err.Error(), prodPriv) || !strings.Contains(err.Error(), "another key's") {
		t.Errorf("Load through ops.private -> prod.private = %v; want it refused, naming %s", err, prodPriv)
	}
}

// A link to a volume that is not mounted is said as such, not as a key
// that does not exist (which would advise generating one).
func TestPrivateLinkedToMissingFileSaysSo(t *testing.T) {
	s, _, root := vaultKey(t, "vault", "vault/ops.private")
	if err := os.Rename(filepath.Join(root, "vault"), filepath.Join(root, "unmounted")); err != nil {
		t.Fatal(err)
	}
	_, err := s.Load("ops")
	var nf *NotFoundError
	if err == nil || errors.As(err, &nf) || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("Load through a dangling link = %v; want it said that the link leads nowhere", err)
	}
}

// Run as root (a container given a user's keys by a bind mount, sudo
// keeping HOME), a keys directory or key file of another user is refused,
// but never with the advice to chown it to root: its owner could then no
// longer read their own keys. The advice is to run vigil as that user.
func TestRootIsNotToldToTakeAUsersKeys(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root")
	}
	s, _ := sharedDir(t, 0o700)
	priv, _, _ := s.Paths("ops")
	for _, path := range []string{priv, s.Dir} {
		if err := os.Chown(path, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		_, err := s.Load("ops")
		if err == nil {
			t.Fatalf("Load as root with %s of uid 65534 succeeded", path)
		}
		if msg := err.Error(); strings.Contains(msg, "chown 0 ") || !strings.Contains(msg, "sudo -u ") {
			t.Errorf("Load as root with %s of uid 65534: %v\nwant the advice to run vigil as its owner, not to give it to root", path, err)
		}
	}
}
