//go:build !unix

package userfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// openNoFollow opens path, refusing a symbolic link there. Without
// O_NOFOLLOW (Windows), the name is looked at first and the file opened
// compared with it, so a link put in its place in between is refused too.
func openNoFollow(path string, flag int, perm fs.FileMode) (*os.File, error) {
	before, err := os.Lstat(path)
	switch {
	case err == nil && before.Mode()&fs.ModeSymlink != 0:
		return nil, linkRefusal(path)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	f, err := os.OpenFile(path, flag, perm)
	if err != nil {
		return nil, err
	}
	after, lerr := os.Lstat(path)
	fi, ferr := f.Stat()
	if lerr != nil || ferr != nil || after.Mode()&fs.ModeSymlink != 0 || !os.SameFile(after, fi) {
		f.Close()
		return nil, fmt.Errorf("%s was replaced while vigil opened it; check who else writes its directory, and start again", path)
	}
	return f, nil
}
