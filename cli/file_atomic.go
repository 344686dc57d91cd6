package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// writeFileAtomic replaces path with data: written and synced in a temporary
// file of the same directory, then renamed over it, so that a crash leaves
// the old file or the new one, never part of either.
//
// A symbolic link is followed, as os.WriteFile does: the file it points at
// is replaced (beside it), and the link stays, so that a link such as
// latest.json -> proof-2026-11-28.json keeps pointing at fresh data. A file
// that exists keeps its permissions, except that a private perm (no group
// or other bits) keeps it private. A name of one of our open descriptors
// (--out /dev/stdout, /dev/fd/3) is written through that descriptor, as the
// shell opened it (ownFD); a device or a pipe has nothing to replace and is
// written straight; a named pipe nobody reads is refused
// (errPipeNobodyReads) rather than waited on.
func writeFileAtomic(path string, data []byte, perm fs.FileMode) error {
	if fd, ok := ownFD(path); ok {
		return writeToFD(path, fd, data)
	}
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		if fi.IsDir() {
			return fmt.Errorf("write %s: it is a directory; give a file name", path)
		}
		return writeStraight(path, data)
	}
	target, existing, err := resolveLinks(path)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if existing != nil {
		private := perm&0o077 == 0
		perm = existing.Mode().Perm()
		if private {
			perm &^= 0o077
		}
	}
	return replaceName(path, target, data, perm)
}

// replaceOwnFile replaces the name path with data, as writeFileAtomic does,
// but never follows a symbolic link there: the rename replaces the link
// itself, not the file it leads to. For the files vigil keeps for itself in
// a directory it writes (webhook listen's accepted-events, the demo's
// demo-root.pem), where a planted link would otherwise have the write
// replace any file of the user's, a private key say.
func replaceOwnFile(path string, data []byte, perm fs.FileMode) error {
	return replaceName(path, path, data, perm)
}

// replaceName writes data (perm) to a synced temporary file beside target
// and renames it to target; errors name path, the name the caller was given.
func replaceName(path, target string, data []byte, perm fs.FileMode) error {
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, target)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, trimPath(err, tmp))
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync() // the rename itself on disk; best effort
		d.Close()
	}
	return nil
}

// maxLinks bounds the links followed in a row, as the kernel does (ELOOP).
const maxLinks = 40

// resolveLinks follows path's symbolic links to the name that holds (or
// will hold) the file, and returns what is there, nil when nothing is.
func resolveLinks(path string) (string, fs.FileInfo, error) {
	for range maxLinks {
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return path, nil, nil
		}
		if err != nil {
			return "", nil, err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return path, fi, nil
		}
		to, err := os.Readlink(path)
		if err != nil {
			return "", nil, err
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(path), to)
		}
		path = to
	}
	return "", nil, fmt.Errorf("more than %d symbolic links in a row; point it at the file itself", maxLinks)
}

// writeStraight writes data into the device or pipe at path.
func writeStraight(path string, data []byte) error {
	f, err := openNoWait(path, os.O_WRONLY, 0)
	if errors.Is(err, syscall.ENXIO) {
		if fi, serr := os.Stat(path); serr == nil && fi.Mode()&fs.ModeSocket != 0 {
			return fmt.Errorf("write %s: it is a socket, which cannot be opened as a file; give a regular file or a pipe", path)
		}
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// errPipeNobodyReads is openNoWait's error for a named pipe without a
// reader; the caller names its flag and says to start the reader first.
var errPipeNobodyReads = errors.New("it is a named pipe nobody reads")

// openNoWait opens path with O_NONBLOCK added to flag, so that the open of
// a named pipe nobody reads fails at once (ENXIO) instead of hanging,
// silent, until a reader comes: that is errPipeNobodyReads. ENXIO is also a
// socket's (which open cannot write to) or a device's without its driver,
// returned as the system said it. Nothing changes for a regular file.
func openNoWait(path string, flag int, perm fs.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, flag|syscall.O_NONBLOCK, perm)
	if errors.Is(err, syscall.ENXIO) {
		if fi, serr := os.Stat(path); serr == nil && fi.Mode()&fs.ModeNamedPipe != 0 {
			return nil, errPipeNobodyReads
		}
	}
	return f, err
}

// trimPath drops the temporary file's name from err: the message names the
// file being written instead.
func trimPath(err error, tmp string) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == tmp {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
