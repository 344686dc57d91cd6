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
// what it is, and what to do.
func OpenOwn(path string, flag int, perm fs.FileMode) (*os.File, error) {
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
	if err := checkOwn(path, fi); err != nil {
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
	return checkOwn(path, li)
}

func checkOwn(path string, fi fs.FileInfo) error {
	q := shellword.Quote(path)
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is %s, not a regular file: vigil keeps a file of its own under this name; move it away (mv %s %s.away) and start again", path, Kind(fi.Mode()), q, q)
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
