package userfile

import (
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"strconv"

	"github.com/vigil-console/vigil/internal/shellword"
)

// ownerFix is the advice for path, owned by uid (neither the user nor
// root): instead (what else the user may do), or have root give it to
// them. Run as root (a container given a user's files by a bind mount,
// sudo keeping HOME), giving it to root would take it from its owner, who
// could no longer read it: the advice is then to run vigil as that user.
func ownerFix(uid int, path, instead string) string {
	if os.Geteuid() == 0 {
		return fmt.Sprintf("run vigil as its owner (sudo -u %s vigil …), or %s; do not chown it to root, which would lock its owner out", sudoUser(uid), instead)
	}
	return fmt.Sprintf("%s, or have root give it to you (chown %d %s)", instead, os.Geteuid(), shellword.Quote(path))
}

// sudoUser is how sudo -u names the user uid: the name when it needs no
// quoting in a shell, else '#uid'.
func sudoUser(uid int) string {
	if u, err := user.LookupId(strconv.Itoa(uid)); err == nil && shellword.Plain(u.Username) && u.Username[0] != '-' {
		return u.Username
	}
	return fmt.Sprintf("'#%d'", uid)
}

// ForeignOwner names the owner of fi, found at path ("user NAME (uid N)"),
// when it is neither the user running vigil nor root, who may chmod and
// rewrite the file at will, with what to do: instead, or what ownerFix
// adds. Both are "" otherwise, and where files have no owner (Windows).
func ForeignOwner(fi fs.FileInfo, path, instead string) (who, fix string) {
	if uid, ok := owner(fi); ok && foreign(uid) {
		return userName(uid), ownerFix(uid, path, instead)
	}
	return "", ""
}

// Links is how many names (hard links) the file fi describes has; 1 where
// that is unknown (Windows).
func Links(fi fs.FileInfo) uint64 {
	if n, ok := links(fi); ok {
		return n
	}
	return 1
}
