//go:build !unix

package cli

import (
	"fmt"
	"os"
)

// writeToFD writes data to standard output or error, the descriptors a
// system without /dev/fd can name by a file that is them (ownFD).
func writeToFD(path string, fd int, data []byte) error {
	f := os.Stdout
	if fd == 2 {
		f = os.Stderr
	}
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
