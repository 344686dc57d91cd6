//go:build unix

package server

import (
	"errors"
	"os"
	"syscall"
)

var errLockHeld = errors.New("lock held")

// lockFile takes an exclusive flock on f without waiting. flock, not fcntl:
// fcntl locks belong to the whole process, so a second Open in this same
// process would not be refused.
func lockFile(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return errLockHeld
		default:
			return err
		}
	}
}
