//go:build windows

package keys

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// tryLock locks a byte far past the end of f, exclusively and without
// waiting (Windows locks are mandatory: the placeholder stays readable);
// false when another open file holds it.
func tryLock(f *os.File) (bool, error) {
	ol := &windows.Overlapped{OffsetHigh: 0x7fffffff}
	err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return false, nil
	}
	return err == nil, err
}
