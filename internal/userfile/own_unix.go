//go:build unix

package userfile

import (
	"io/fs"
	"os"
	"syscall"
)

// openNoFollow opens path without following a symbolic link there (the
// open fails instead), and without blocking on a named pipe, which
// OpenOwn then refuses.
func openNoFollow(path string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(path, flag|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, perm)
}
