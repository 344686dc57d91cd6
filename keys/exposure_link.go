package keys

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/vigil-console/vigil/internal/userfile"
)

// checkLink checks the private key file fi, opened through path (in the
// keys directory dir), a symbolic link (to a key kept on an encrypted or
// removable volume, say), and returns the file it leads to. The keys
// directory is already checked, so only the user or root made the link;
// what it leads to must be as safe: every directory on the way and every
// link followed (userfile.Exposure, as for the config), and the file
// itself. A link to the file of another key of the store is refused, by
// whatever way it gets there, and so is a link to a file named as another
// key's (another store's prod.private): vigil would stamp with that key
// under this one's name.
func checkLink(dir, path string, fi fs.FileInfo) (string, error) {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", fmt.Errorf("key file %s is a symbolic link that cannot be followed: %w", path, err)
	}
	if ti, err := os.Stat(target); err != nil || !os.SameFile(ti, fi) {
		return "", fmt.Errorf("key file %s, a symbolic link, was changed while it was read; try again", path)
	}
	other, err := otherKeyFile(dir, path, fi)
	if err != nil {
		return "", err
	}
	if other != "" {
		// Either link may be the wrong one: both keys are refused until one goes.
		return "", fmt.Errorf("key file %s is a symbolic link to %s, which is also another key's private key file (%s): vigil would stamp with one key under two names; remove the link that does not belong, and use that key by its own name", path, target, other)
	}
	if base := filepath.Base(target); strings.HasSuffix(base, ".private") && base != filepath.Base(path) {
		// Another store's key, most likely (~/other/keys/prod.private).
		return "", fmt.Errorf("key file %s is a symbolic link to %s, another key's private key file: vigil would stamp with that key under the name of this one; remove the link, and use that key by its own name", path, target)
	}
	if who, fix := userfile.Exposure(path, fi); who != "" {
		// who names the hop that fails: the file, a directory on the way, a
		// link in a sticky directory.
		to, _ := os.Readlink(path)
		return "", fmt.Errorf("key file %s (a symbolic link to %s) %s, who could change the key or read it; %s", path, to, who, fix)
	}
	return target, nil
}

// otherKeyFile is the private key file of another key in dir that is the
// file fi (its own links followed), or "". Files, not names, are compared:
// a key kept on a volume as vault/prod.key and linked as prod.private is
// reached as well through ops.private -> prod.private as through
// ops.private -> vault/prod.key.
func otherKeyFile(dir, path string, fi fs.FileInfo) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", fmt.Errorf("key file %s is a symbolic link, and the keys directory cannot be read to check that it leads to no other key: %w", path, err)
	}
	own := filepath.Base(path)
	for _, e := range entries {
		name := e.Name()
		if name == own || !strings.HasSuffix(name, ".private") {
			continue
		}
		p := filepath.Join(dir, name)
		if oi, err := os.Stat(p); err == nil && os.SameFile(oi, fi) {
			return p, nil
		}
	}
	return "", nil
}
