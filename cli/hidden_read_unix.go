//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package cli

import (
	"io"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
)

// hiddenReadSignals are the signals readHidden handles while it reads:
// Ctrl-Z (SIGTSTP) and a read from the background (SIGTTIN) stop vigil
// with the terminal put back, and echo goes off again on resume, as
// OpenSSH's readpassphrase does; left to their default, the shell turned
// echo on while vigil was stopped and a key pasted after 'fg' was shown.
// Ctrl-\ (SIGQUIT) ends the read as Ctrl-C does, rather than the runtime's
// goroutine dump that left the shell without echo. SIGTTOU is left to its
// default: only readHidden's own terminal changes raise it, and stopping
// there, the change completing on 'fg', is already right (caught, the
// restarted ioctl would raise it over and over).
func hiddenReadSignals() []os.Signal {
	return []os.Signal{syscall.SIGTSTP, syscall.SIGTTIN, syscall.SIGQUIT}
}

// isQuitSignal reports whether sig ends a hidden read (the rest stop it).
func isQuitSignal(sig os.Signal) bool { return sig == syscall.SIGQUIT }

// inForeground reports whether sig arrived with vigil owning the terminal
// (SIGTSTP, Ctrl-Z), not in the background (SIGTTIN), where the shell has
// put its own modes and changing them would stop vigil with SIGTTOU.
func inForeground(sig os.Signal) bool { return sig != syscall.SIGTTIN }

// stopForReal stops vigil as sig's default action would, and returns once
// vigil is continued ('fg' or 'bg'): on SIGCONT, as the stop may be taken
// by another thread after kill has returned. It stops by SIGSTOP: once
// notified, the Go runtime keeps its handler after signal.Reset and drops
// sig sent again. As the kernel does for sig, it does not stop a process
// group nobody could continue (jobControlled).
func stopForReal(os.Signal) {
	if !jobControlled() {
		return
	}
	continued := make(chan os.Signal, 1)
	signal.Notify(continued, syscall.SIGCONT)
	defer signal.Stop(continued)
	syscall.Kill(syscall.Getpid(), syscall.SIGSTOP)
	<-continued
}

// jobControlled reports whether vigil's parent (its shell) is in another
// process group of vigil's session, so vigil's process group is not
// orphaned and the shell can continue it after a stop.
func jobControlled() bool {
	ppid := syscall.Getppid()
	parentGroup, err := syscall.Getpgid(ppid)
	if err != nil || parentGroup == syscall.Getpgrp() {
		return false
	}
	parentSession, err := unix.Getsid(ppid)
	if err != nil {
		return false
	}
	session, err := unix.Getsid(0)
	return err == nil && parentSession == session
}

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
