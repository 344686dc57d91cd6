package cli

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/vigil-console/vigil/keys"
)

// keyElsewhere completes a key-not-found error with another directory that
// holds a key of that name, among dirs (the directories a user could have
// meant: the default keys directory, the active profile's keys_dir). Then the
// error says where the key is instead of advising 'vigil keys generate NAME',
// which that directory would refuse. Any other error is returned as it is.
func keyElsewhere(err error, dirs ...string) error {
	var nf *keys.NotFoundError
	if !errors.As(err, &nf) {
		return err
	}
	for _, d := range dirs {
		if d == "" || filepath.Clean(d) == filepath.Clean(nf.Dir) {
			continue
		}
		priv, _, _ := keys.Store{Dir: d}.Paths(nf.Name)
		if fi, serr := os.Stat(priv); serr == nil && fi.Mode().IsRegular() {
			nf.Elsewhere = d
			break
		}
	}
	return err
}

// defaultKeysDir is keys.DefaultDir, or "" when there is none.
func defaultKeysDir(getenv func(string) string) string {
	d, err := keys.DefaultDir(getenv)
	if err != nil {
		return ""
	}
	return d
}
