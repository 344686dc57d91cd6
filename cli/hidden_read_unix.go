//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package cli

import (
	"io"
	"os"
	"syscall"
)

// hiddenReadSignals are the signals readHidden handles while it reads.
// SIGCONT: vigil was stopped at the prompt (Ctrl-Z, a read from the
// background) and is continued; the shell had the terminal meanwhile and
// turned echo back on, so a key pasted after 'fg' was shown. readHidden
// turns echo off again and asks again, as OpenSSH's readpassphrase does.
// The stop signals (SIGTSTP, SIGTTIN, SIGTTOU) are left to the kernel: it
// stops vigil as any program, and knows when it must not (an orphaned
// process group). Caught, they went wrong: not stopping under a wrapper
// script, a stale SIGTTIN stopping vigil again after 'fg', and the Go
// runtime dropping Ctrl-Z for the rest of the command (signal.Stop keeps
// its handler); SIGCONT's default is to do nothing, so that handler is
// harmless for it. Ctrl-\ (SIGQUIT) ends the read as Ctrl-C does, rather
// than the runtime's goroutine dump that left the shell without echo.
func hiddenReadSignals() []os.Signal {
	return []os.Signal{syscall.SIGCONT, syscall.SIGQUIT}
}

// isQuitSignal reports whether sig ends a hidden read (SIGCONT asks again).
func isQuitSignal(sig os.Signal) bool { return sig == syscall.SIGQUIT }

// readTypedLine reads one line typed on the terminal fd, which readHidden
// has set (echo off, whole lines), as term.ReadPassword reads it (a stray
// carriage return or backspace dropped) but without changing the terminal:
// a read still starting after readHidden put the terminal back must not
// turn echo off again.
func readTypedLine(fd uintptr) ([]byte, error) {
	var line []byte
	var b [1]byte
	for {
		n, err := syscall.Read(int(fd), b[:])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return line, err
		case n == 0: // end of input (Ctrl-D)
			if len(line) > 0 {
				return line, nil
			}
			return line, io.EOF
		}
		switch b[0] {
		case '\n':
			return line, nil
		case '\r':
		case '\b':
			if len(line) > 0 {
				line = line[:len(line)-1]
			}
		default:
			line = append(line, b[0])
		}
	}
}
