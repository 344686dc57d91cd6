package keys

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
	"testing"
	"time"
)

// closeFailFile closes for real, dropping the reservation's lock as a
// failing close does, runs before first (as another process would in that
// window), and reports the close failed.
type closeFailFile struct {
	*os.File
	before func()
}

func (f *closeFailFile) Close() error {
	if f.before != nil {
		f.before()
	}
	f.File.Close()
	return &fs.PathError{Op: "close", Path: f.Name(), Err: syscall.EIO}
}

// A close that fails after the key was written and synced has dropped the
// lock: nothing may be removed after it (another process may own the name by
// then). The key is on disk, so it stays saved, with all its files, and no
// copy is left elsewhere.
func TestSaveKeepsASyncedKeyWhoseCloseFails(t *testing.T) {
	for _, keep := range []bool{false, true} {
		for _, scheme := range []string{SchemeP256, SchemeEd25519} {
			s := Store{Dir: t.TempDir(), fallbackDirs: []string{t.TempDir()}}
			r, err := s.Reserve("x")
			if err != nil {
				t.Fatal(err)
			}
			r.f = &closeFailFile{File: r.f.(*os.File)}
			k, err := Generate(scheme)
			if err != nil {
				t.Fatal(err)
			}
			if err := r.save(k, time.Time{}, keep); err != nil {
				t.Errorf("keep=%v %s: save whose close failed after the sync: %v; want the synced key saved", keep, scheme, err)
			}
			got, err := s.Load("x")
			if err != nil {
				t.Errorf("keep=%v %s: the synced key does not load: %v", keep, scheme, err)
				continue
			}
			if got.PublicKeyHex() != k.PublicKeyHex() || got.Scheme() != scheme {
				t.Errorf("keep=%v %s: key x is not the one saved", keep, scheme)
			}
			if left := names(t, s.fallbackDirs[0]); len(left) != 0 {
				t.Errorf("keep=%v %s: copies left outside the store: %v", keep, scheme, left)
			}
		}
	}
}

// A close that fails and leaves the file not holding the key: a key that
// cannot be made again is copied elsewhere and the error says where; the
// store's file, no longer locked, is left alone.
func TestSaveCopiesAKeyWhoseFileIsWrongAfterAFailedClose(t *testing.T) {
	s := Store{Dir: t.TempDir(), fallbackDirs: []string{t.TempDir()}}
	r, err := s.Reserve("x")
	if err != nil {
		t.Fatal(err)
	}
	priv, _, _ := s.Paths("x")
	r.f = &closeFailFile{File: r.f.(*os.File), before: func() {
		if err := os.WriteFile(priv, []byte("lost\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}}
	k, err := Generate(SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	err = r.Save(k, time.Time{})
	var ns *NotSavedError
	if !errors.As(err, &ns) || ns.Copy == "" {
		t.Fatalf("Save whose file does not hold the key after a failed close: %v; want a *NotSavedError naming a copy", err)
	}
	b, err := os.ReadFile(ns.Copy)
	if err != nil || firstLine(string(b)) != k.PrivateKeyHex() {
		t.Errorf("the copy %s does not hold the key (%v)", ns.Copy, err)
	}
	if _, err := os.Lstat(priv); err != nil {
		t.Errorf("the store's file was removed without its lock: %v", err)
	}
}
