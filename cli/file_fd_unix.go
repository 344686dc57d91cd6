//go:build unix

package cli

import (
	"fmt"
	"os"
	"syscall"
)

// writeToFD writes data through a duplicate of this process's descriptor
// fd, which path names: the file stays as the shell opened it (appended to
// with >>, a socket or a pipe as it is), nothing is renamed over it.
func writeToFD(path string, fd int, data []byte) error {
	syscall.ForkLock.RLock()
	dup, err := syscall.Dup(fd)
	if err == nil {
		syscall.CloseOnExec(dup)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return fmt.Errorf("write %s: descriptor %d: %w", path, fd, err)
	}
	f := os.NewFile(uintptr(dup), path)
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
