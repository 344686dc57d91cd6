package userfile

import (
	"github.com/vigil-console/vigil/internal/shellword"

	"fmt"
	"io/fs"
	"runtime"
)

// DirExposure is Exposure for a directory whose entries vigil trusts (the
// keys directory), described by di: who besides the user and root could
// add, remove or replace what it holds, and what to do. Unlike a parent
// directory, a sticky one others may write is refused too: they could not
// replace its entries, but they could add the ones it lacks (a key's
// .scheme or .expires file, a name not yet taken). Group write by the
// user's private group is fine, as for the config.
func DirExposure(dir string, di fs.FileInfo) (who, fix string) {
	if writers, bits := strangers(di); writers != "" {
		return fmt.Sprintf("is writable by %s (mode %04o)", writers, di.Mode().Perm()),
			fmt.Sprintf("run: chmod %s-w %s", bits, shellword.Quote(dir))
	}
	if uid, ok := owner(di); ok && foreign(uid) {
		return fmt.Sprintf("is owned by %s, not by you or root", userName(uid)),
			ownerFix(uid, dir, "use a directory of your own")
	}
	if runtime.GOOS == "windows" {
		return "", ""
	}
	return walkExposure(dir)
}
