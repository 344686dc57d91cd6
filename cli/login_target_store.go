package cli

import (
	"os"
	"path/filepath"

	"github.com/vigil-console/vigil/keys"
)

// inKeysDir reports whether path is a file of the keys directory: named in
// it, a symlink to a file in it, or a hard link to one of its files. A
// stored P-256 key reads exactly like a target key 'vigil login
// oauth-nonce' writes, and login oauth deletes its --target-key file once
// used: such a path must never be that file, or a key the user signs with
// is lost.
func inKeysDir(store keys.Store, path string) bool {
	dir, err := os.Stat(store.Dir)
	if err != nil {
		return false // no keys directory: nothing in it to lose
	}
	sameDir := func(p string) bool {
		in, err := os.Stat(filepath.Dir(p))
		return err == nil && os.SameFile(in, dir)
	}
	if sameDir(path) {
		return true
	}
	if resolved, err := filepath.EvalSymlinks(path); err == nil && sameDir(resolved) {
		return true
	}
	file, err := os.Stat(path)
	if err != nil {
		return false
	}
	entries, err := os.ReadDir(store.Dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if stored, err := os.Lstat(filepath.Join(store.Dir, e.Name())); err == nil && os.SameFile(file, stored) {
			return true
		}
	}
	return false
}
