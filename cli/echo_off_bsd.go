//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package cli

import "golang.org/x/sys/unix"

// echoOff stops the terminal fd echoing what is typed, before a hidden
// prompt is printed: turned off only once the reader runs, a paste that
// followed the prompt at once was shown. It also keeps the line discipline
// a hidden line is read with (lines, Ctrl-C, Enter as a new line), as
// term.ReadPassword did: readHidden alone sets the terminal, the reader
// only reads (readTypedLine).
func echoOff(fd uintptr) error {
	t, err := unix.IoctlGetTermios(int(fd), unix.TIOCGETA)
	if err != nil {
		return err
	}
	t.Lflag &^= unix.ECHO
	t.Lflag |= unix.ICANON | unix.ISIG
	t.Iflag |= unix.ICRNL
	return unix.IoctlSetTermios(int(fd), unix.TIOCSETA, t)
}
