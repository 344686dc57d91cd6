package cli

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/vigil-console/vigil/keys"
)

// keptTargetName is --recover's --target-key given as the path of a key's
// .private file in the keys directory (copied from an ls, say) turned into
// that key's name, so that it is handled as the name form is: all of its
// files go once the new key is saved (not only the .private, whose .public
// and .scheme would keep the next login from keeping its target key under
// that name), and a key not named as a login's target stays. Anything else
// (a key's name, a file made by login oauth-nonce) is returned as given.
func keptTargetName(store keys.Store, arg string) string {
	if keys.CheckName(arg) == nil {
		if priv, _, _ := store.Paths(arg); fileOrLinkExists(priv) {
			return arg // the name of a key, whatever else it looks like
		}
	}
	name, ok := strings.CutSuffix(filepath.Base(arg), ".private")
	if !ok || keys.CheckName(name) != nil {
		return arg
	}
	in, err := os.Stat(filepath.Dir(arg))
	if err != nil {
		return arg
	}
	dir, err := os.Stat(store.Dir)
	if err != nil || !os.SameFile(in, dir) {
		return arg
	}
	return name
}

func fileOrLinkExists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
