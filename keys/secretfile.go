package keys

import (
	"fmt"
	"os"
)

// ReadSecretFile reads a small secret kept outside a store, such as the
// target key of a login, as Load reads a private key file: a FIFO does not
// block, anything but a regular file is refused, the size is capped, and a
// file that group or others may read is refused with the chmod that fixes
// it. A missing file's error matches fs.ErrNotExist.
func ReadSecretFile(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if fi.Mode().IsRegular() {
		if perm := fi.Mode().Perm(); perm&0o077 != 0 {
			return "", fmt.Errorf("%s is accessible by group or others (mode %04o); run: chmod 600 %s", ShowPath(path), perm, ShowPath(path))
		}
	}
	return readSmall(path)
}
