package userfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/vigil-console/vigil/internal/shellword"
)

// OpenOwn opens, for reading and writing, a file vigil keeps for itself in
// a directory it writes (a lock file, a journal), creating it with perm
// when it is missing; flag adds to os.O_RDWR|os.O_CREATE (os.O_APPEND, say;
// never os.O_TRUNC: nothing may be cut before the checks). The name is
// never followed when it is a symbolic link, and the file opened must be a
// regular file of this one name, owned by the user or root: otherwise
// writing it would change a file elsewhere (a link or hard link planted to
// a key turns the write into that key's loss). The refusal names the file,
// what it is, and what to do: for OpenOwn, whose files hold nothing to keep
// (a lock file), remove the name.
func OpenOwn(path string, flag int, perm fs.FileMode) (*os.File, error) {
	return openOwn(path, flag, perm, false)
}

// OpenOwnKeeping is OpenOwn for a file whose content must outlive the
// refusal (a journal): the advice gives the name a copy of its own, content
// kept, where OpenOwn's removes it.
func OpenOwnKeeping(path string, flag int, perm fs.FileMode) (*os.File, error) {
	return openOwn(path, flag, perm, true)
}

func openOwn(path string, flag int, perm fs.FileMode, keep bool) (*os.File, error) {
	f, err := openNoFollow(path, os.O_RDWR|os.O_CREATE|flag, perm)
	if err != nil {
		if li, lerr := os.Lstat(path); lerr == nil && li.Mode()&fs.ModeSymlink != 0 {
			return nil, linkRefusal(path)
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := checkOwn(path, fi, keep); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// CheckOwnName refuses what is at path when it is not a file vigil may
// replace by name as its own: a symbolic link (the user may have meant the
// file it leads to), anything but a regular file, a file of more names or
// of another owner. A missing file is fine.
func CheckOwnName(path string) error {
	li, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if li.Mode()&fs.ModeSymlink != 0 {
		return linkRefusal(path)
	}
	return checkOwn(path, li, false)
}

// ownCopy is the command that gives path a file of its own, one name and
// not a link, with the content it shows now: the fix that loses nothing.
func ownCopy(path string) string {
	q, own := shellword.Quote(path), shellword.Quote(path+".own")
	return "cp -p " + q + " " + own + " && mv " + own + " " + q
}

func checkOwn(path string, fi fs.FileInfo, keep bool) error {
	q := shellword.Quote(path)
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is %s, not a regular file: vigil keeps a file of its own under this name; move it away (mv %s %s.away) and start again", path, Kind(fi.Mode()), q, q)
	}
	if n := Links(fi); n > 1 && keep {
		return fmt.Errorf("%s has %d names (hard links): writing it would change the same file under its other names, which may be a key or other file of yours; vigil keeps a file of its own under this name: give this name a copy of its own, keeping what it holds (%s), and start again", path, n, ownCopy(path))
	}
	if n := Links(fi); n > 1 {
		return fmt.Errorf("%s has %d names (hard links): writing it would change the same file under its other names, which may be a key or other file of yours; vigil keeps a file of its own under this name: remove this name (rm %s) and start again", path, n, q)
	}
	if who, fix := ForeignOwner(fi, path, "remove it (rm "+q+") and start again"); who != "" {
		return fmt.Errorf("%s is owned by %s, not by you or root, who could read or change what vigil keeps in it; %s", path, who, fix)
	}
	return nil
}

func linkRefusal(path string) error {
	q := shellword.Quote(path)
	return fmt.Errorf("%s is a symbolic link: vigil keeps a file of its own under this name and does not write through links (that would overwrite the file the link leads to); remove the link (rm %s) and start again", path, q)
}
