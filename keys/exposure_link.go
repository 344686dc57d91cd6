package keys

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/vigil-console/vigil/internal/userfile"
)

// checkLink checks the private key file fi, opened through path, a
// symbolic link (to a key kept on an encrypted or removable volume, say).
// The keys directory is already checked, so only the user or root made the
// link; what it leads to must be as safe: every directory on the way and
// every link followed (userfile.Exposure, as for the config), and the file
// itself. A link to another key's private key file is refused: vigil would
// stamp with that key under this one's name.
func checkLink(path string, fi fs.FileInfo) error {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return fmt.Errorf("key file %s is a symbolic link that cannot be followed: %w", path, err)
	}
	if ti, err := os.Stat(target); err != nil || !os.SameFile(ti, fi) {
		return fmt.Errorf("key file %s, a symbolic link, was changed while it was read; try again", path)
	}
	if base := filepath.Base(target); strings.HasSuffix(base, ".private") && base != filepath.Base(path) {
		return fmt.Errorf("key file %s is a symbolic link to %s, another key's private key file: vigil would stamp with that key under the name of this one; remove the link, and use that key by its own name", path, target)
	}
	if who, fix := userfile.Exposure(path, fi); who != "" {
		// who names the hop that fails: the file, a directory on the way, a
		// link in a sticky directory.
		to, _ := os.Readlink(path)
		return fmt.Errorf("key file %s (a symbolic link to %s) %s, who could change the key or read it; %s", path, to, who, fix)
	}
	return nil
}
