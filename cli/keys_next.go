package cli

import (
	"fmt"
	"path/filepath"

	"github.com/vigil-console/vigil/keys"
)

// keysGenerateNext is the step after 'vigil keys generate NAME': register
// the key, then point the profile at it, unless the active profile already
// reads NAME from this directory (it names the key it expects, and the key
// was just made for it).
func keysGenerateNext(c proc, f *keysDirFlags, store keys.Store, name, credType string) string {
	register := fmt.Sprintf("Next: register the public key as an API key (%s) of your user", credType)
	p, err := loadProfile(c, f.config, f.profile)
	if err == nil && p.Key == name {
		dir := p.KeysDir
		if dir == "" {
			dir = defaultKeysDir(c.getenv)
		}
		if dir != "" && filepath.Clean(dir) == filepath.Clean(store.Dir) {
			return fmt.Sprintf("%s;\nprofile %q already stamps with key = %q.", register, p.Name, name)
		}
	}
	return fmt.Sprintf("%s,\nthen set key = %q in your profile.", register, name)
}
