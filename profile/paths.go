package profile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// resolveConfigPath makes a config-relative path absolute; "~/" is the home
// directory, which must then be known and absolute: taken as relative, the
// path would be a directory named "~" beside the config (or one under the
// working directory), where keys would be written and not found again.
func resolveConfigPath(dir, p string) (string, error) {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		home, err := os.UserHomeDir()
		if err != nil || !filepath.IsAbs(home) {
			why := "it is not set"
			if err == nil {
				why = fmt.Sprintf("it is %q", home)
			}
			return "", fmt.Errorf("%q: \"~/\" needs HOME set to an absolute path (%s); set it, or give an absolute path", p, why)
		}
		return filepath.Join(home, rest), nil
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p), nil
	}
	return filepath.Join(dir, p), nil
}
