package keys

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fullFile is a real file whose writes fail with ENOSPC once full says so,
// as on a disk that has run out of space.
type fullFile struct {
	*os.File
	full   func(path string, write int) bool
	writes int
}

func (f *fullFile) fail() error {
	f.writes++
	if f.full(f.Name(), f.writes) {
		return &fs.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
	}
	return nil
}

func (f *fullFile) Write(p []byte) (int, error) {
	if err := f.fail(); err != nil {
		return 0, err
	}
	return f.File.Write(p)
}

func (f *fullFile) WriteAt(p []byte, off int64) (int, error) {
	if err := f.fail(); err != nil {
		return 0, err
	}
	return f.File.WriteAt(p, off)
}

// diskFull makes the store's writes fail as on a full disk wherever
// full(path, nth write to that file) is true; files are still created.
func diskFull(s *Store, full func(path string, write int) bool) {
	s.openFile = func(name string, flag int, perm fs.FileMode) (file, error) {
		f, err := os.OpenFile(name, flag, perm)
		if err != nil {
			return nil, err
		}
		return &fullFile{File: f, full: full}, nil
	}
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// The placeholder Reserve writes is exactly as long as any key written over
// it: writing the key needs no space the reservation does not hold.
func TestPlaceholderIsAsLongAsEveryKey(t *testing.T) {
	if len(placeholder) != privateFileLen {
		t.Fatalf("placeholder is %d bytes, want %d", len(placeholder), privateFileLen)
	}
	for _, scheme := range []string{SchemeP256, SchemeSecp256k1, SchemeEd25519} {
		k, err := Generate(scheme)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(k.PrivateKeyHex() + "\n"); n != privateFileLen {
			t.Errorf("a %s key file is %d bytes, the placeholder %d", scheme, n, privateFileLen)
		}
	}
}

// A reservation holds the key's space on disk; loaded, a placeholder says
// whether its save is running now or never finished.
func TestReserveTakesTheKeysSpace(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	r, err := s.Reserve("login")
	if err != nil {
		t.Fatal(err)
	}
	priv, _, _ := s.Paths("login")
	b, err := os.ReadFile(priv)
	if err != nil || string(b) != placeholder {
		t.Fatalf("the reserved file holds %q (%v), want the %d-byte placeholder", b, err, privateFileLen)
	}
	if _, err := s.Load("login"); err == nil || !strings.Contains(err.Error(), "saving it now") {
		t.Errorf("Load of a name reserved now: %v", err)
	}
	// A placeholder nobody holds (its process died) is a save that never
	// finished.
	left, _, _ := s.Paths("left")
	if err := os.WriteFile(left, []byte(placeholder), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load("left"); err == nil || !strings.Contains(err.Error(), "did not finish") {
		t.Errorf("Load of an abandoned placeholder: %v", err)
	}
	os.Remove(left)
	r.Cancel()
	if got := names(t, s.Dir); len(got) != 0 {
		t.Errorf("Cancel left %v", got)
	}
}

// A full or read-only keys directory is refused when the name is reserved
// (before an OAuth login sends anything), naming the directory once, with the
// way out, and leaving nothing behind.
func TestReserveRefusesADirectoryItCannotWrite(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	diskFull(&s, func(string, int) bool { return true })
	_, err := s.Reserve("login")
	var dirErr *DirError
	if !errors.As(err, &dirErr) || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Reserve on a full disk: %v, want a *DirError wrapping ENOSPC", err)
	}
	want := "cannot write the keys directory " + s.Dir + " (no space left on device); free space there, or set keys_dir / --dir to another directory"
	if err.Error() != want {
		t.Errorf("Reserve on a full disk:\n got %s\nwant %s", err, want)
	}
	if got := names(t, s.Dir); len(got) != 0 {
		t.Errorf("a refused reservation left %v", got)
	}

	ro := Store{Dir: s.Dir, openFile: func(name string, flag int, perm fs.FileMode) (file, error) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.EROFS}
	}}
	_, err = ro.Reserve("login")
	want = "cannot write the keys directory " + s.Dir + " (read-only file system); make it writable, or set keys_dir / --dir to a writable directory"
	if err == nil || err.Error() != want {
		t.Errorf("Reserve in a read-only directory:\n got %v\nwant %s", err, want)
	}
}

// When the key itself cannot be written into the store, a key that cannot
// be made again is copied to a file outside it and the error says where and
// how to put it in place; the store's file is not removed.
func TestSaveKeepsAKeyItCannotWrite(t *testing.T) {
	s := Store{Dir: filepath.Join(t.TempDir(), "keys"), fallbackDirs: []string{t.TempDir()}}
	// The placeholder is written; the key over it is not.
	diskFull(&s, func(path string, write int) bool { return strings.HasSuffix(path, ".private") && write > 1 })
	r, err := s.Reserve("c2-oauth")
	if err != nil {
		t.Fatal(err)
	}
	k, _ := Generate(SchemeP256)
	err = r.Save(k, time.Now().Add(time.Hour))
	var ns *NotSavedError
	if !errors.As(err, &ns) || ns.Copy == "" || filepath.Dir(ns.Copy) != s.fallbackDirs[0] {
		t.Fatalf("Save: %v, want a *NotSavedError with a copy in %s", err, s.fallbackDirs[0])
	}
	priv, _, _ := s.Paths("c2-oauth")
	for _, want := range []string{priv, "(no space left on device)", ns.Copy + " (mode 0600)", "free space in " + s.Dir, "mv " + ns.Copy + " " + priv} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Save's error does not say %q:\n%s", want, err)
		}
	}
	fi, err := os.Stat(ns.Copy)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the copy: %v %v, want mode 0600", fi, err)
	}
	if _, err := os.Stat(priv); err != nil {
		t.Errorf("the store's .private file was removed: %v", err)
	}
	// Following the advice gives the key.
	if err := os.Rename(ns.Copy, priv); err != nil {
		t.Fatal(err)
	}
	if got, err := (Store{Dir: s.Dir}).Load("c2-oauth"); err != nil || got.PrivateKeyHex() != k.PrivateKeyHex() {
		t.Fatalf("the key once moved into place: %v", err)
	}

	// Nowhere to keep a copy: the error says so, and the store's file (which
	// may hold part of the key) is still not removed.
	s.fallbackDirs = []string{filepath.Join(t.TempDir(), "missing")}
	r, err = s.Reserve("c3-oauth")
	if err != nil {
		t.Fatal(err)
	}
	err = r.Save(k, time.Time{})
	if !errors.As(err, &ns) || ns.Copy != "" || !strings.Contains(err.Error(), "could not be saved anywhere") {
		t.Fatalf("Save with nowhere to copy: %v", err)
	}
	if priv, _, _ := s.Paths("c3-oauth"); !fileExists(priv) {
		t.Error("the store's .private file was removed")
	}

	// A key that can be made again (keys generate) leaves nothing instead.
	if k, err := s.Generate("again", SchemeP256); k != nil || err == nil {
		t.Fatalf("Generate with the key unwritable: %v %v", k, err)
	}
	for _, name := range names(t, s.Dir) {
		if strings.HasPrefix(name, "again.") {
			t.Errorf("a failed generate left %s", name)
		}
	}
}

func fileExists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// A key saved without the files that describe it is usable: the files begun
// are removed (an empty .public would not match the key), and the error says
// the key is saved.
func TestIncompleteSaveLeavesAUsableKey(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	diskFull(&s, func(path string, _ int) bool { return !strings.HasSuffix(path, ".private") })
	k, err := s.Generate("kp", SchemeP256)
	var inc *IncompleteError
	if k == nil || !errors.As(err, &inc) {
		t.Fatalf("Generate with only the private key writable: %v %v", k, err)
	}
	want := "the key kp is saved and usable; its .public and .scheme files could not be written (no space left on device)"
	if err.Error() != want {
		t.Errorf("Generate:\n got %s\nwant %s", err, want)
	}
	if got := names(t, s.Dir); len(got) != 1 || got[0] != "kp.private" {
		t.Errorf("files left: %v, want kp.private alone", got)
	}
	if got, err := (Store{Dir: s.Dir}).Load("kp"); err != nil || got.PublicKeyHex() != k.PublicKeyHex() {
		t.Fatalf("the key without its other files: %v", err)
	}
	if info, err := s.Info("kp"); err != nil || info.PublicKeyHex != k.PublicKeyHex() || info.Scheme != SchemeP256 {
		t.Errorf("Info: %+v %v", info, err)
	}

	// Only the .public file fails: an Ed25519 key keeps its .scheme, written
	// before the key, and loads as itself.
	diskFull(&s, func(path string, _ int) bool { return strings.HasSuffix(path, ".public") })
	ed, err := s.Generate("ed", SchemeEd25519)
	if ed == nil || err == nil || !strings.Contains(err.Error(), "its .public file could not be written") {
		t.Fatalf("Generate ed25519 without .public: %v %v", ed, err)
	}
	if got, err := (Store{Dir: s.Dir}).Load("ed"); err != nil || got.Scheme() != SchemeEd25519 || got.PublicKeyHex() != ed.PublicKeyHex() {
		t.Fatalf("the Ed25519 key without .public: %v", err)
	}

	// An Ed25519 key whose .scheme cannot be written would load as another
	// (P-256) key: it is not saved at all.
	diskFull(&s, func(path string, _ int) bool { return strings.HasSuffix(path, ".scheme") })
	if k, err := s.Generate("ed2", SchemeEd25519); k != nil || err == nil || !strings.Contains(err.Error(), "no space left on device") {
		t.Fatalf("Generate ed25519 without .scheme: %v %v", k, err)
	}
	for _, name := range names(t, s.Dir) {
		if strings.HasPrefix(name, "ed2.") {
			t.Errorf("a failed generate left %s", name)
		}
	}

	// An OAuth login's expiry is written first; without it the error says
	// what is lost.
	diskFull(&s, func(path string, _ int) bool { return strings.HasSuffix(path, ".expires") })
	r, err := s.Reserve("login")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 23, 11, 30, 0, 0, time.UTC)
	err = r.Save(k, at)
	if !errors.As(err, &inc) || !strings.Contains(err.Error(), "its .expires file could not be written") || !strings.Contains(err.Error(), "expires at 2026-11-23T11:30:00Z") {
		t.Fatalf("Save without .expires: %v", err)
	}
}

// The command a NotSavedError gives can be pasted, whatever the paths hold.
func TestNotSavedErrorCommandIsQuoted(t *testing.T) {
	e := &NotSavedError{Name: "k", Path: "/home/me/my keys/k.private", Scheme: SchemeEd25519, Copy: "/tmp/vigil-k-AB.private",
		Expires: time.Date(2026, 11, 23, 11, 30, 0, 0, time.UTC)}
	want := `mv /tmp/vigil-k-AB.private '/home/me/my keys/k.private' && echo ` + SchemeEd25519 + ` > '/home/me/my keys/k.scheme'` +
		` && echo 2026-11-23T11:30:00Z > '/home/me/my keys/k.expires'`
	if got := e.moveCommand(); got != want {
		t.Errorf("moveCommand:\n got %s\nwant %s", got, want)
	}
}

// A placeholder left by a process killed before it saved its key is told
// apart from a key: Reserve's *ExistsError says the file holds no key and
// gives the command that removes it; a saved key's name is refused as taken.
func TestReserveTellsALeftoverPlaceholderFromAKey(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	if _, err := s.Reserve("left"); err != nil { // never saved nor cancelled: the process died
		t.Fatal(err)
	}
	_, err := s.Reserve("left")
	var taken *ExistsError
	if !errors.As(err, &taken) || !taken.Placeholder {
		t.Fatalf("Reserve over a leftover placeholder: %v; want an *ExistsError marked Placeholder", err)
	}
	priv, _, _ := s.Paths("left")
	if !strings.Contains(err.Error(), "holds no key") || !strings.Contains(err.Error(), "rm "+priv) {
		t.Errorf("the error does not say the file holds no key and how to remove it: %v", err)
	}

	if _, err := s.Generate("kept", SchemeP256); err != nil {
		t.Fatal(err)
	}
	_, err = s.Reserve("kept")
	if !errors.As(err, &taken) || taken.Placeholder || strings.Contains(err.Error(), "holds no key") {
		t.Errorf("Reserve over a saved key: %v; want it taken, not a placeholder", err)
	}
}
