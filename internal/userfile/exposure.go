package userfile

import (
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Exposure says who, besides the user running vigil and root, could change
// the file at path (already opened, fi being what was opened) or replace it:
//   - a file group or others may write;
//   - a file owned by another user, who may chmod and rewrite it at will;
//   - a directory holding it, or holding a symbolic link on the way to it
//     (as named, and once symlinks are resolved), that another user owns,
//     or that group or others may write without the sticky bit, so they
//     could rename their own file or link over it.
//
// A directory's group write is no exposure when the group is the user's
// private group (named as the user, the user's own gid), as Debian's ssh
// judges it: under umask 002, the default there, every directory a user
// makes is so. The file itself must not be group-writable at all (vigil
// writes its own files 0600; chmod go-w fixes an edited one).
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
	dirs := pathDirs(path)
	for _, dir := range dirs {
		di, err := os.Stat(dir)
		if err != nil {
			continue // the file was opened through it: nothing to add
		}
		if uid, ok := owner(di); ok && foreign(uid) {
			return fmt.Sprintf("is in directory %s of %s", dir, userName(uid)),
				"move it to a directory of your own"
		}
		if writableByStrangers(di) && di.Mode()&fs.ModeSticky == 0 {
			return fmt.Sprintf("is reached through directory %s (mode %04o), which group or others may write", dir, di.Mode().Perm()),
				fmt.Sprintf("run: chmod go-w %s, or move it to a directory of your own", dir)
		}
	}
	return "", ""
}

// pathDirs are the directories whose writers could replace the file at
// path: the one it is named in, the one of each symbolic link on the way
// to it (a link is replaced as a file is), and the one it is in once every
// link is resolved.
func pathDirs(path string) []string {
	var dirs []string
	add := func(dir string) {
		if !slices.Contains(dirs, dir) {
			dirs = append(dirs, dir)
		}
	}
	add(filepath.Dir(path))
	for hop, p := 0, path; hop < 40; hop++ { // 40: the kernel's own limit on links
		target, err := os.Readlink(p)
		if err != nil {
			break
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(p), target)
		}
		p = target
		add(filepath.Dir(p))
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		add(filepath.Dir(real))
	}
	return dirs
}

// writableByStrangers reports whether anyone but the user (and root) may
// write the directory fi: others, or a group that is not the user's
// private one.
func writableByStrangers(fi fs.FileInfo) bool {
	if !WritableByOthers(fi) {
		return false
	}
	if fi.Mode().Perm()&0o002 != 0 {
		return true
	}
	gid, ok := group(fi)
	return !ok || !privateGroup(gid)
}

// privateGroup reports whether gid is the user's private group: the user's
// own gid, named as the user.
func privateGroup(gid int) bool {
	if gid != os.Getegid() {
		return false
	}
	u, err := user.Current()
	if err != nil {
		return false
	}
	g, err := user.LookupGroupId(strconv.Itoa(gid))
	return err == nil && g.Name == u.Username
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
