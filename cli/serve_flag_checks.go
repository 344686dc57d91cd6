package cli

import (
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"
)

// checkDataDirFlag refuses a --data that names something other than a
// directory (a regular file, /dev/zero) before the service tries to create
// it: the error of that try advised making the path writable, which cannot
// help.
func checkDataDirFlag(verb, dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case err == nil && !fi.IsDir():
		return usagef("%s: --data %s is a file, not a directory; pass --data with a directory (it is created if missing)", verb, shownPath(dir))
	case errors.Is(err, syscall.ENOTDIR):
		return usagef("%s: --data %s is inside a file, not a directory; pass --data with a directory (it is created if missing)", verb, shownPath(dir))
	}
	return nil
}

// checkListenFlag refuses an address flag's value that is no HOST:PORT
// before anything listens: its error advised stopping "what uses it", where
// nothing does.
func checkListenFlag(verb, name, addr string) error {
	const give = "give HOST:PORT, such as 127.0.0.1:8420 (port 0 picks a free one)"
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return usagef("%s: --%s %q is not HOST:PORT (%v); %s", verb, name, addr, unwrapAddrError(err), give)
	}
	if _, err := net.ResolveTCPAddr("tcp", addr); err != nil {
		return usagef("%s: --%s %q: %v; %s", verb, name, addr, unwrapAddrError(err), give)
	}
	return nil
}

// unwrapAddrError is the reason of a *net.AddrError without the address,
// which the message names already, quoted.
func unwrapAddrError(err error) string {
	var ae *net.AddrError
	if errors.As(err, &ae) {
		return ae.Err
	}
	return err.Error()
}

// listenAdvice says what to do when listening on a well-formed address
// fails: only a port in use is something to stop.
func listenAdvice(name string, err error) string {
	if errors.Is(err, syscall.EADDRINUSE) {
		return fmt.Sprintf("stop what uses it, or pass --%s with another port (127.0.0.1:0 picks a free one)", name)
	}
	return fmt.Sprintf("pass --%s with an address of this machine, such as 127.0.0.1:0 (a free port)", name)
}
