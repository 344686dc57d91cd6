package userfile

import (
	"github.com/vigil-console/vigil/internal/shellword"

	"fmt"
	"io/fs"
	"os"
	"os/user"
	"runtime"
	"strconv"
	"strings"
	"unicode"
)

// Exposure says who, besides the user running vigil and root, could change
// the file at path (already opened, fi being what was opened) or replace it:
//   - a file writable by others, or by a group other than the user's
//     private one;
//   - a file owned by another user, who may chmod and rewrite it at will;
//   - any directory the path goes through, from / down to the file's own,
//     following every symbolic link on the way (see walkExposure): one
//     another user owns, or one others (or another group) may write without
//     the sticky bit, so they could rename their own file, link or
//     directory over the next step of the path.
//
// Group write is no exposure when the group is the user's private group
// (named as the user, the user's own gid), as Debian's ssh judges it: under
// umask 002, the default there, every file and directory a user makes is so.
// Unlike ssh, the walk does not stop at the home directory: whoever may write
// the directory holding it could rename the home away and put their own in
// its place.
//
// As ssh does, such a file is refused rather than warned about: it decides
// where vigil sends requests or what it trusts. The message reads
// "PATH <who>, who could …; <fix>"; both are empty when no one could.
func Exposure(path string, fi fs.FileInfo) (who, fix string) {
	if writers, bits := strangers(fi); writers != "" {
		return fmt.Sprintf("is writable by %s (mode %04o)", writers, fi.Mode().Perm()),
			fmt.Sprintf("run: chmod %s-w %s", bits, shellword.Quote(path))
	}
	if uid, ok := owner(fi); ok && foreign(uid) {
		return fmt.Sprintf("is owned by %s, not by you or root", userName(uid)),
			ownerFix(uid, path, "copy it to a file of your own and use that")
	}
	if runtime.GOOS == "windows" {
		return "", "" // no owners or modes to walk
	}
	return walkExposure(path)
}

// dirExposure says who besides the user and root could change what the
// directory dir (described by di) holds; empty when no one could. A sticky
// directory others may write is no exposure by itself: only the owner of an
// entry may replace it there, which the walk checks entry by entry.
func dirExposure(dir string, di fs.FileInfo) (who, fix string) {
	if uid, ok := owner(di); ok && foreign(uid) {
		return fmt.Sprintf("is in directory %s of %s", dir, userName(uid)),
			"move it to a directory of your own"
	}
	if writers, bits := strangers(di); writers != "" && di.Mode()&fs.ModeSticky == 0 {
		return fmt.Sprintf("is in directory %s (mode %04o), writable by %s", dir, di.Mode().Perm(), writers),
			fmt.Sprintf("run: chmod %s-w %s, or move it to a directory of your own", bits, shellword.Quote(dir))
	}
	return "", ""
}

// strangers says who besides the user (and root) may write fi by its mode
// bits: others, or a group that is not the user's private one; bits is
// what chmod takes away ("o", "g" or "go"). Both are empty when no one may.
func strangers(fi fs.FileInfo) (who, bits string) {
	if !WritableByOthers(fi) {
		return "", ""
	}
	perm := fi.Mode().Perm()
	var names []string
	if perm&0o020 != 0 {
		if gid, ok := group(fi); !ok || !privateGroup(gid) {
			names = append(names, "the members of "+groupName(gid, ok))
			bits += "g"
		}
	}
	if perm&0o002 != 0 {
		names = append(names, "others")
		bits += "o"
	}
	return strings.Join(names, " and "), bits
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
	if u, err := user.LookupId(id); err == nil && plain(u.Username) {
		return fmt.Sprintf("user %s (uid %s)", u.Username, id)
	}
	return "uid " + id
}

// groupName names a group for messages: "group NAME (gid N)", or "gid N"
// when the name is unknown, "its group" when the gid is.
func groupName(gid int, known bool) string {
	if !known {
		return "its group"
	}
	id := strconv.Itoa(gid)
	if g, err := user.LookupGroupId(id); err == nil && plain(g.Name) {
		return fmt.Sprintf("group %s (gid %s)", g.Name, id)
	}
	return "gid " + id
}

// plain reports whether a user or group name may be printed as it is.
func plain(name string) bool {
	return name != "" && !strings.ContainsFunc(name, func(r rune) bool { return !unicode.IsPrint(r) || r == ' ' })
}
