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
	if strings.HasPrefix(p, "~/") {
		home, _ := os.UserHomeDir()
		return ExpandHome(p, home)
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p), nil
	}
	return filepath.Join(dir, p), nil
}

// ExpandHome returns p with a leading "~/" (or p "~" alone) replaced by the
// home directory home, as a shell does. Anything else is returned as it is.
// A command-line flag needs it as much as the config does: shells leave a
// "~" after "=" (--dir=~/keys) as it is. home must be absolute: taken
// literally, the path would be a directory named "~" under the working
// directory, where a key would be written and not found again.
func ExpandHome(p, home string) (string, error) {
	rest, ok := strings.CutPrefix(p, "~/")
	if !ok && p != "~" {
		return p, nil
	}
	if !filepath.IsAbs(home) {
		why := "it is not set"
		if home != "" {
			why = fmt.Sprintf("it is %q", home)
		}
		return "", fmt.Errorf("%q: \"~/\" needs HOME set to an absolute path (%s); set it, or give an absolute path", p, why)
	}
	return filepath.Join(home, rest), nil
}
