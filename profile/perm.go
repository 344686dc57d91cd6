package profile

import (
	"fmt"
	"io/fs"

	"github.com/vigil-console/vigil/internal/userfile"
)

// checkWritable refuses a config that anyone but the user running vigil
// (and root) could change: one group or others may write, one another user
// owns, or one below a directory another user owns or may write. It decides
// where stamped requests go, whether they may travel in plain http, and
// which roots boot proofs are checked against, so another local user able
// to edit it could redirect or forge all of that. Reading by others is
// fine: the file holds no secret.
func checkWritable(path string, fi fs.FileInfo) error {
	if who, fix := userfile.Exposure(path, fi); who != "" {
		return fmt.Errorf("config %s %s, who could change where vigil sends requests and what it trusts; %s", path, who, fix)
	}
	return nil
}
