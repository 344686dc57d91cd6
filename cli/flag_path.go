package cli

import "github.com/vigil-console/vigil/profile"

// flagPath is the path p given to --flag of verb, with a leading "~/" or
// "~user/" expanded as the config's keys_dir is (profile.ExpandHome):
// shells leave a "~" after "=" (--dir=~/keys) as it is, and taken literally
// it would be a directory named "~" under the working directory, printed as
// if it were the home directory.
func flagPath(c proc, verb, flag, p string) (string, error) {
	x, err := profile.ExpandHome(p, c.getenv("HOME"))
	if err != nil {
		return "", usagef("%s: --%s %v", verb, flag, err)
	}
	return x, nil
}
