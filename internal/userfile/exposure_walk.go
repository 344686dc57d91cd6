package userfile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxHops is how many symbolic links a path may go through, the kernel's
// own limit.
const maxHops = 40

// walkExposure resolves path as the kernel does, one name at a time from /
// (or from the working directory's own path), and checks every directory it
// looks a name up in (dirExposure): the ancestors of the file, of each
// symbolic link on the way and of each link's target. In a sticky
// directory others may write, the entry looked up (a directory, a link, the
// file) must also be the user's or root's, the only ones who may replace it
// there.
//
// The file is already open: a name that no longer resolves was changed in a
// directory already found safe, so by the user or root, and the walk stops
// with nothing to add.
func walkExposure(path string) (who, fix string) {
	if !filepath.IsAbs(path) {
		wd, err := os.Getwd()
		if err != nil {
			return "", ""
		}
		// Not filepath.Join, which would clean "link/.." away before the
		// link is followed.
		path = wd + string(filepath.Separator) + path
	}
	dir, rest := string(filepath.Separator), names(path)
	for hops := 0; len(rest) > 0; {
		name := rest[0]
		rest = rest[1:]
		if name == ".." {
			dir = filepath.Dir(dir) // dir holds no links: ".." is its parent
			continue
		}
		di, err := os.Stat(dir)
		if err != nil {
			return "", ""
		}
		if who, fix := dirExposure(dir, di); who != "" {
			return who, fix
		}
		entry := filepath.Join(dir, name)
		ei, err := os.Lstat(entry)
		if err != nil {
			return "", ""
		}
		if w, _ := strangers(di); w != "" { // sticky, or dirExposure refused it
			if uid, ok := owner(ei); ok && foreign(uid) {
				return fmt.Sprintf("is reached through %s of %s, in directory %s (mode %04o, sticky), writable by %s", entry, userName(uid), dir, di.Mode().Perm(), w),
					fmt.Sprintf("move it to a directory of your own, reached without %s", entry)
			}
		}
		if ei.Mode()&fs.ModeSymlink == 0 {
			dir = entry
			continue
		}
		if hops++; hops > maxHops {
			return "", ""
		}
		target, err := os.Readlink(entry)
		if err != nil {
			return "", ""
		}
		if filepath.IsAbs(target) {
			dir = string(filepath.Separator)
		}
		rest = append(names(target), rest...)
	}
	return "", ""
}

// names splits a path into the names to look up, leaving out empty ones
// and ".".
func names(path string) []string {
	var out []string
	for _, n := range strings.Split(path, string(filepath.Separator)) {
		if n != "" && n != "." {
			out = append(out, n)
		}
	}
	return out
}
