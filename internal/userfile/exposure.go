package userfile

import (
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
)

// Exposure says who, besides the user running vigil and root, could change
// the file at path (already opened, fi being what was opened) or replace it:
//   - a file group or others may write;
//   - a file owned by another user, who may chmod and rewrite it at will;
//   - a directory holding it (as named, and once symlinks are resolved) that
//     another user owns, or that group or others may write without the
//     sticky bit, so they could rename their own file over it.
//
// As ssh does, such a file is refused rather than warned about: it decides
// where vigil sends requests or what it trusts. The message reads
// "PATH <who>, who could …; <fix>"; both are empty when no one could.
// Only the directory itself is checked, not its ancestors.
func Exposure(path string, fi fs.FileInfo) (who, fix string) {
	if WritableByOthers(fi) {
		return fmt.Sprintf("is writable by group or others (mode %04o)", fi.Mode().Perm()),
			"run: chmod go-w " + path
	}
	if uid, ok := owner(fi); ok && foreign(uid) {
		return fmt.Sprintf("is owned by %s, not by you or root", userName(uid)),
			fmt.Sprintf("copy it to a file of your own and use that, or have root give it to you (chown %d %s)", os.Geteuid(), path)
	}
	dirs := []string{filepath.Dir(path)}
	if real, err := filepath.EvalSymlinks(path); err == nil && filepath.Dir(real) != dirs[0] {
		dirs = append(dirs, filepath.Dir(real))
	}
	for _, dir := range dirs {
		di, err := os.Stat(dir)
		if err != nil {
			continue // the file was opened through it: nothing to add
		}
		if uid, ok := owner(di); ok && foreign(uid) {
			return fmt.Sprintf("is in directory %s of %s", dir, userName(uid)),
				"move it to a directory of your own"
		}
		if WritableByOthers(di) && di.Mode()&fs.ModeSticky == 0 {
			return fmt.Sprintf("is in directory %s, which group or others may write (mode %04o) to replace it", dir, di.Mode().Perm()),
				fmt.Sprintf("run: chmod go-w %s, or move it to a directory of your own", dir)
		}
	}
	return "", ""
}

// foreign reports whether uid is neither the effective user nor root.
func foreign(uid int) bool { return uid != os.Geteuid() && uid != 0 }

// userName names a user for messages: "user NAME (uid N)", or "uid N" when
// the name is unknown.
func userName(uid int) string {
	id := strconv.Itoa(uid)
	// The name is printed: only plain text of it.
	if u, err := user.LookupId(id); err == nil && u.Username != "" && !strings.ContainsFunc(u.Username, func(r rune) bool { return !unicode.IsPrint(r) || r == ' ' }) {
		return fmt.Sprintf("user %s (uid %s)", u.Username, id)
	}
	return "uid " + id
}
