package profile

import (
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strings"
)

// resolveConfigPath makes a config-relative path absolute; "~/" is the home
// directory, which must then be known and absolute, and "~user/" that
// user's (ExpandHome): taken as relative, the path would be a directory
// named "~" beside the config (or one under the working directory), where
// keys would be written and not found again. "~" alone meant, before "~"
// was expanded in the config, a file of that name beside it: it is refused
// rather than silently read as the home directory now.
func resolveConfigPath(dir, p string) (string, error) {
	if p == "~" {
		return "", fmt.Errorf("%q is ambiguous: write \"~/\" for your home directory or \"./~\" for a file named so beside the config", p)
	}
	if strings.HasPrefix(p, "~") {
		home, _ := os.UserHomeDir()
		return ExpandHome(p, home)
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p), nil
	}
	return filepath.Join(dir, p), nil
}

// ExpandHome returns p with a leading "~/" (or p "~" alone) replaced by the
// home directory home, and a leading "~user/" by that user's home directory
// (os/user.Lookup), as a shell does. Anything else is returned as it is. A
// command-line flag needs it as much as the config does: shells leave a
// "~" after "=" (--dir=~/keys) as it is. The home directory must be
// absolute: taken literally, the path would be a directory named "~" under
// the working directory, where a key would be written and not found again.
// An unknown user is an error for the same reason. "~user" with no slash is
// refused: it used to be a file or directory of that name (beside the
// config, or in the working directory), and reading it as a home directory
// now would silently put keys in another account's home.
func ExpandHome(p, home string) (string, error) {
	after, ok := strings.CutPrefix(p, "~")
	if !ok {
		return p, nil
	}
	name, rest, slash := strings.Cut(after, "/")
	if name != "" && !slash {
		return "", fmt.Errorf("%q is ambiguous: write %q for that user's home directory or %q for a file named so", p, p+"/", "./"+p)
	}
	if name != "" {
		return expandUserHome(p, name, rest)
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

// expandUserHome is p, "~name/rest", with "~name" replaced by the home
// directory of the user name.
func expandUserHome(p, name, rest string) (string, error) {
	u, err := user.Lookup(name)
	if err != nil {
		why := "there is no such user on this system"
		if !errors.As(err, new(user.UnknownUserError)) {
			why = fmt.Sprintf("looking the user up failed: %q", err.Error())
		}
		return "", fmt.Errorf("%q: %q means the home directory of user %q, and %s; check the name, give an absolute path, or write %q for a path that starts with a \"~\"",
			p, "~"+name+"/", name, why, "./"+p)
	}
	if !filepath.IsAbs(u.HomeDir) {
		return "", fmt.Errorf("%q: user %q has no absolute home directory (it is %q); give an absolute path", p, name, u.HomeDir)
	}
	return filepath.Join(u.HomeDir, rest), nil
}
