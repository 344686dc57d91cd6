//go:build linux

package cli

import "golang.org/x/sys/unix"

// echoOff stops the terminal fd echoing what is typed, before a hidden
// prompt is printed: turned off only once the reader runs, a paste that
// followed the prompt at once was shown.
func echoOff(fd uintptr) error {
	t, err := unix.IoctlGetTermios(int(fd), unix.TCGETS)
	if err != nil {
		return err
	}
	t.Lflag &^= unix.ECHO
	return unix.IoctlSetTermios(int(fd), unix.TCSETS, t)
}
