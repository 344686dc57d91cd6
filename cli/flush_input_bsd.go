//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package cli

import "golang.org/x/sys/unix"

// fread is FREAD of <sys/fcntl.h>: TIOCFLUSH with it flushes the input queue.
const fread = 1

// flushInput discards what was typed on the terminal fd and not yet read:
// tcflush(fd, TCIFLUSH), which these systems spell ioctl TIOCFLUSH.
func flushInput(fd uintptr) error {
	return unix.IoctlSetPointerInt(int(fd), unix.TIOCFLUSH, fread)
}
