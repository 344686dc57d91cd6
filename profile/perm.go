package profile

import (
	"fmt"
	"io/fs"

	"github.com/vigil-console/vigil/internal/userfile"
)

// checkWritable refuses a config that group or others may write: it decides
// where stamped requests go, whether they may travel in plain http, and
// which roots boot proofs are checked against, so another local user able to
// edit it could redirect or forge all of that. Reading by others is fine:
// the file holds no secret.
func checkWritable(path string, fi fs.FileInfo) error {
	if userfile.WritableByOthers(fi) {
		return fmt.Errorf("config %s is writable by group or others (mode %04o), who could change where vigil sends requests and what it trusts; run: chmod go-w %s", path, fi.Mode().Perm(), path)
	}
	return nil
}
