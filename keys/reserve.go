package keys

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// file is what the store writes through: an *os.File, or a test's stand-in.
type file interface {
	io.Writer
	io.WriterAt
	Sync() error
	Close() error
}

func (s Store) open(name string, flag int, perm fs.FileMode) (file, error) {
	if s.openFile != nil {
		return s.openFile(name, flag, perm)
	}
	return os.OpenFile(name, flag, perm)
}

// privateFileLen is the length of every scheme's .private file: a 32-byte
// key in hex and a newline.
const privateFileLen = 65

// reservedMark starts the placeholder Reserve writes into a .private file,
// so that Load can say what a file left by an unfinished save is.
const reservedMark = "vigil: reserved for a key being saved"

// placeholder is exactly as long as the key that is written over it, so that
// writing the key takes no space the reservation does not hold.
var placeholder = reservedMark + strings.Repeat(".", privateFileLen-1-len(reservedMark)) + "\n"

// A Reservation holds a key's name, and the space of its private key, before
// the key exists: its .private file is created (O_EXCL, mode 0600) holding a
// placeholder as long as the key, and synced. So an OAuth login, whose key the
// service makes only once, knows before it submits that the key can be saved,
// that no other key takes the name meanwhile, and that the disk has room.
type Reservation struct {
	store Store
	name  string
	f     file // the .private file; nil once saved or cancelled
}

// Reserve claims name in the store: the directory exists and is writable, no
// file of a key by that name (.private, .public, .scheme, .expires) exists,
// and the private key's space is taken. A taken name is an *ExistsError; a
// directory that cannot be written, a *DirError.
func (s Store) Reserve(name string) (*Reservation, error) {
	// CheckName, not ValidateName: a login reserves derived names
	// (NAME-target) too; callers check the names users give.
	if err := CheckName(name); err != nil {
		return nil, err
	}
	if s.Dir == "" {
		return nil, errors.New("keys directory is not set")
	}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return nil, &DirError{Dir: s.Dir, Create: true, Err: err}
	}
	// An existing directory is taken as it is: it must be the user's alone.
	if err := s.checkDir(); err != nil {
		return nil, fmt.Errorf("save key %q: %w", name, err)
	}
	priv, pub, sch := s.Paths(name)
	for _, p := range []string{priv, pub, sch, s.expiryPath(name)} {
		if _, err := os.Lstat(p); err == nil {
			return nil, s.exists(name, p)
		}
	}
	// O_EXCL closes the race between the check above and the write.
	f, err := s.open(priv, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil, s.exists(name, priv)
	}
	if err != nil {
		return nil, &DirError{Dir: s.Dir, Err: err}
	}
	// Locked before the placeholder is written, for as long as this process
	// holds the reservation: a placeholder whose file nobody locks was left
	// by a process that died (the lock goes with it, kill -9 included).
	// Another process may hold the lock for an instant (probePlaceholder's
	// probe, RemoveAbandoned finding the file still empty): wait it out, but
	// never go on unlocked, or a later RemoveAbandoned would take this live
	// reservation for an abandoned one and the key saved into it would be lost.
	if osf, ok := f.(*os.File); ok {
		locked, err := lockSoon(osf)
		if err == nil && !locked {
			err = errors.New("another vigil process holds it; try again")
		}
		if err != nil {
			removeThenClose(f, priv)
			return nil, &DirError{Dir: s.Dir, Err: fmt.Errorf("lock %s: %w", priv, err)}
		}
	}
	_, err = f.WriteAt([]byte(placeholder), 0)
	if err == nil {
		err = f.Sync()
	}
	if err == nil {
		err = syncDir(s.Dir) // the name, not only the placeholder, survives a crash
	}
	if err != nil {
		removeThenClose(f, priv) // only the placeholder: nothing is lost
		return nil, &DirError{Dir: s.Dir, Err: err}
	}
	return &Reservation{store: s, name: name, f: f}, nil
}

// lockSoon is tryLock, retried for up to a second: long enough for another
// process's probe of the file, which holds the lock only while it reads.
func lockSoon(f *os.File) (bool, error) {
	for range 100 {
		locked, err := tryLock(f)
		if locked || err != nil {
			return locked, err
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false, nil
}

// exists is the *ExistsError of name, whose file path was found; it tells
// a reservation's placeholder (a .private file with no key, and no other
// file of the key) from a key.
func (s Store) exists(name, path string) *ExistsError {
	e := &ExistsError{Name: name, Path: path}
	priv, pub, sch := s.Paths(name)
	if path != priv {
		return e
	}
	for _, p := range []string{pub, sch, s.expiryPath(name)} {
		if _, err := os.Lstat(p); err == nil {
			return e // a save that went further than the placeholder
		}
	}
	if b, err := readSmall(priv); err == nil && strings.HasPrefix(b, reservedMark) {
		e.Placeholder = true
		e.Abandoned = probePlaceholder(priv) == placeholderAbandoned
	}
	return e
}

// RemoveAbandoned removes the placeholder of name when it is provably
// abandoned: only a placeholder (no key, no other file of the key), whose
// reserving process is gone (its lock is free, and held here while the file
// is removed, so no reservation can be live). Anything else is left alone and
// returned as an *ExistsError (or the failure): so is a placeholder whose
// owner removed it, and another process may have made anew, since it was
// opened here.
func (s Store) RemoveAbandoned(name string) error {
	if err := CheckName(name); err != nil {
		return err
	}
	priv, _, _ := s.Paths(name)
	f, err := os.Open(priv)
	if err != nil {
		return err
	}
	defer f.Close()
	locked, err := tryLock(f)
	if err != nil {
		return err
	}
	e := s.exists(name, priv)
	if !locked || !e.Placeholder || !stillAt(f, priv) {
		return e
	}
	if err := os.Remove(priv); err != nil {
		return err
	}
	return syncDir(s.Dir)
}

// errPlaceholderGone is save's error when the placeholder it wrote the key
// into is no longer at its path.
var errPlaceholderGone = errors.New("its placeholder was removed or replaced while the key was being saved into it")

// checkStillAt is errPlaceholderGone unless path still names the file f has
// open (a test's stand-in for a file is taken as it is).
func checkStillAt(f file, path string) error {
	if osf, ok := f.(*os.File); ok && !stillAt(osf, path) {
		return errPlaceholderGone // the caller's error names path
	}
	return nil
}

// stillAt says whether path still names the file f has open: a file locked
// after its owner removed it says nothing of a new file at its path.
func stillAt(f *os.File, path string) bool {
	open, err := f.Stat()
	if err != nil {
		return false
	}
	now, err := os.Lstat(path)
	return err == nil && os.SameFile(open, now)
}

// Save writes k under the reserved name, and its expiry unless expires is
// zero. It is for a key that cannot be made again (an OAuth login's): nothing
// it writes is removed once it may hold the key. If the private key cannot be
// written into the store, a copy goes to a file outside it (mode 0600), and the
// error is a *NotSavedError saying where. If the key is saved but a file that
// describes it is not, the error is an *IncompleteError: the key is usable.
func (r *Reservation) Save(k *Key, expires time.Time) error {
	return r.save(k, expires, true)
}

// save is Save; without keep, a key whose private key cannot be written is
// removed instead of copied elsewhere: the caller can make it again.
func (r *Reservation) save(k *Key, expires time.Time, keep bool) error {
	if r.f == nil {
		return fmt.Errorf("save key %q: the reservation was already used", r.name)
	}
	f := r.f
	r.f = nil
	s := r.store
	priv, pub, sch := s.Paths(r.name)
	fail := func(err error) error {
		if keep {
			f.Close()
			return r.keepElsewhere(k, expires, err)
		}
		if errors.Is(err, errPlaceholderGone) {
			f.Close() // priv is no longer this file: leave whatever is there
		} else {
			removeThenClose(f, priv)
		}
		return fmt.Errorf("save key %q: %w", r.name, &DirError{Dir: s.Dir, Err: err})
	}

	// Without its .scheme file a key loads as P-256, so another scheme's
	// key needs that file, on disk and in the directory, before its private
	// key is there to be loaded.
	p256 := k.Scheme() == SchemeP256
	if !p256 {
		err := s.writeNew(sch, k.Scheme()+"\n", 0o644)
		if err == nil {
			err = syncDir(s.Dir)
		}
		if err != nil {
			return fail(err)
		}
	}
	// Over the placeholder: the space Reserve took, so a full disk does not
	// stop it.
	_, err := f.WriteAt([]byte(k.PrivateKeyHex()+"\n"), 0)
	if err == nil {
		err = f.Sync() // on disk before anything says it is saved
	}
	if err == nil {
		// Still under the lock: a placeholder someone removed (or replaced)
		// meanwhile took the key with it, written into a file no name
		// reaches any more.
		err = checkStillAt(f, priv)
	}
	if err != nil {
		// f is still open, so its lock is held while fail removes.
		if !keep && !p256 {
			os.Remove(sch)
		}
		return fail(err)
	}
	// The key is synced: it is saved. Close drops the lock even when it
	// fails, so nothing after it may remove a file of the name; a close that
	// fails is checked by reading the key back instead.
	if err := f.Close(); err != nil && !holdsKey(priv, k) {
		return r.unconfirmed(k, expires, keep, err)
	}

	// The key is saved. The rest describes it, and Load does without it: a
	// missing .public is derived from the private key, a missing .scheme
	// of a P-256 key is P-256.
	inc := &IncompleteError{Name: r.name, Expires: expires}
	try := func(path, ext, content string, perm fs.FileMode) {
		if err := s.writeNew(path, content, perm); err != nil {
			inc.Files = append(inc.Files, ext)
			if inc.Err == nil {
				inc.Err = err
			}
		}
	}
	// The expiry first: it is the one that cannot be derived.
	if !expires.IsZero() {
		try(s.expiryPath(r.name), ".expires", expires.UTC().Format(time.RFC3339)+"\n", 0o600)
	}
	try(pub, ".public", k.PublicKeyHex()+"\n", 0o644)
	if p256 {
		try(sch, ".scheme", k.Scheme()+"\n", 0o644)
	}
	// Best effort: each file is synced, and the key loads without them.
	_ = syncDir(s.Dir)
	if inc.Files != nil {
		return inc
	}
	return nil
}

// holdsKey says whether the private key file at priv reads back as k.
func holdsKey(priv string, k *Key) bool {
	b, err := readSmall(priv)
	line, ok := oneLine(b)
	return err == nil && ok && line == k.PrivateKeyHex()
}

// unconfirmed is save's error when the synced key file failed to close and
// does not read back as the key. The lock went with the close, so the file
// is left where it is: a key Save cannot make again is copied elsewhere, as
// when it cannot be written; any other, the user removes.
func (r *Reservation) unconfirmed(k *Key, expires time.Time, keep bool, err error) error {
	if keep {
		return r.keepElsewhere(k, expires, err)
	}
	priv, _, _ := r.store.Paths(r.name)
	return fmt.Errorf("save key %q: closing %s failed (%s) and it does not hold the key written; remove the files of %q in %s and try again", r.name, priv, cause(err), r.name, r.store.Dir)
}

// writeNew creates path (never over an existing file) holding content, synced
// to disk. A file it began and could not finish is removed: a partial .public
// would be read as a public key that does not match.
func (s Store) writeNew(path, content string, perm fs.FileMode) error {
	f, err := s.open(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = f.Write([]byte(content))
	if err == nil {
		// Unsynced, a crash can leave the file empty next to a synced
		// private key (delayed allocation).
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return err // an *fs.PathError: it names the file
	}
	return nil
}

// keepElsewhere writes k's private key to a new file outside the store, after
// writing it into the store failed with why. The store's .private file is left
// as it is: it may hold the key, or part of it. The error's advice restores
// the key's expiry too, which nothing else could tell once the key is moved.
func (r *Reservation) keepElsewhere(k *Key, expires time.Time, why error) error {
	s := r.store
	priv, _, _ := s.Paths(r.name)
	dirs := s.fallbackDirs
	if dirs == nil {
		dirs = []string{os.TempDir(), filepath.Dir(s.Dir)}
	}
	all := why
	for _, dir := range dirs {
		path := filepath.Join(dir, "vigil-"+r.name+"-"+rand.Text()[:8]+".private")
		f, err := s.open(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			all = fmt.Errorf("%w; %w", all, err)
			continue
		}
		if _, err = f.Write([]byte(k.PrivateKeyHex() + "\n")); err != nil {
			f.Close()
			os.Remove(path) // at most part of the key
			all = fmt.Errorf("%w; %w", all, err)
			continue
		}
		err = f.Sync()
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			// Kept: the whole key was written to it, and it may be readable.
			all = fmt.Errorf("%w; %w (%s is kept: it may hold the key)", all, err, path)
			continue
		}
		return &NotSavedError{Name: r.name, Path: priv, Scheme: k.Scheme(), Expires: expires, Copy: path, Err: why}
	}
	return &NotSavedError{Name: r.name, Path: priv, Scheme: k.Scheme(), Expires: expires, Err: all}
}

// Cancel gives the name back (removes the placeholder); after Save it does
// nothing.
func (r *Reservation) Cancel() {
	if r.f == nil {
		return
	}
	priv, _, _ := r.store.Paths(r.name)
	removeThenClose(r.f, priv)
	r.f = nil
}

// removeThenClose removes path, the file f holds locked, and only then
// closes f. Closed first, the lock would be dropped while the path still
// names the file: another process could take it for abandoned, remove it and
// save its own key under the name, which the removal by path would delete.
// On Unix an open, locked file can be unlinked (the next opener creates a new
// file); Windows refuses to remove an open file, so there it is removed after
// the close, as best it can.
func removeThenClose(f file, path string) {
	err := os.Remove(path)
	f.Close()
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		os.Remove(path)
	}
}

// syncDir makes the files created in dir survive a crash. A file system
// that cannot sync a directory (EINVAL) orders its entries itself.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return fmt.Errorf("sync directory %s: %w", dir, err)
	}
	return nil
}
