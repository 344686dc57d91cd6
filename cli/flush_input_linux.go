//go:build linux

package cli

import "golang.org/x/sys/unix"

// flushInput discards what was typed on the terminal fd and not yet read:
// tcflush(fd, TCIFLUSH).
func flushInput(fd uintptr) error {
	return unix.IoctlSetInt(int(fd), unix.TCFLSH, unix.TCIFLUSH)
}
