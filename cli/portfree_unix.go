//go:build unix

package cli

import (
	"net"
	"os"
	"syscall"
)

// portFree reports whether a (a fixed port) can be listened on, by binding a
// socket to it without listening: a connection to it meanwhile is refused,
// not accepted. SO_REUSEADDR is set as Go's listeners set it, so a port with
// only closed connections of an earlier run is free, as it is for them.
func portFree(a *net.TCPAddr) error {
	family, sa := syscall.AF_INET, syscall.Sockaddr(nil)
	if ip4 := a.IP.To4(); a.IP == nil || ip4 != nil {
		s := &syscall.SockaddrInet4{Port: a.Port}
		if ip4 != nil {
			copy(s.Addr[:], ip4)
		}
		sa = s
	} else {
		s := &syscall.SockaddrInet6{Port: a.Port}
		copy(s.Addr[:], a.IP.To16())
		family, sa = syscall.AF_INET6, s
	}
	fd, err := syscall.Socket(family, syscall.SOCK_STREAM, 0)
	if err != nil {
		return os.NewSyscallError("socket", err)
	}
	defer syscall.Close(fd)
	if err := syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_REUSEADDR, 1); err != nil {
		return os.NewSyscallError("setsockopt", err)
	}
	if err := syscall.Bind(fd, sa); err != nil {
		return os.NewSyscallError("bind", err)
	}
	return nil
}
