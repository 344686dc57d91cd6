package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/vigil-console/vigil/keys"
)

// keysGenerateNext is the step after 'vigil keys generate NAME': register
// the key, then point the profile at it, unless the active profile already
// reads NAME from this directory (it names the key it expects, and the key
// was just made for it). A key made outside the profile's keys directory
// (--dir) is found only if keys_dir is set too; it is given absolute, as
// --dir is relative to the working directory and keys_dir to the config.
func keysGenerateNext(c proc, f *keysDirFlags, store keys.Store, name, credType string) string {
	register := fmt.Sprintf("Next: register the public key as an API key (%s) of your user", credType)
	dir := defaultKeysDir(c.getenv)
	p, err := loadProfile(c, f.config, f.profile)
	if err == nil && p.KeysDir != "" {
		dir = p.KeysDir
	}
	sameDir := dir != "" && samePath(dir, store.Dir)
	if err == nil && p.Key == name && sameDir {
		return fmt.Sprintf("%s;\nprofile %q already stamps with key = %q.", register, p.Name, name)
	}
	if !sameDir {
		abs, aerr := filepath.Abs(store.Dir)
		if aerr != nil {
			abs = store.Dir
		}
		return fmt.Sprintf("%s,\nthen set key = %q and keys_dir = %q in your profile (the key is not in its keys directory).", register, name, abs)
	}
	return fmt.Sprintf("%s,\nthen set key = %q in your profile.", register, name)
}

// samePath reports whether a and b name one directory: compared absolute
// and cleaned (--dir is relative to the working directory), then with
// symbolic links resolved, then as the same file.
func samePath(a, b string) bool {
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	if errA != nil || errB != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	if absA == absB {
		return true
	}
	if realA, err := filepath.EvalSymlinks(absA); err == nil {
		if realB, err := filepath.EvalSymlinks(absB); err == nil && realA == realB {
			return true
		}
	}
	infoA, errA := os.Stat(absA)
	infoB, errB := os.Stat(absB)
	return errA == nil && errB == nil && os.SameFile(infoA, infoB)
}
