package cli

import (
	"fmt"
	"os"

	"github.com/vigil-console/vigil/keys"
)

// warnExposedFile warns, after 'keys import --file path', when group or
// others may read path: the key in it may be exposed (ssh-add refuses such a
// file, as keys.ReadSecretFile does). The import goes on: the stored copy
// is mode 0600, and refusing would only make the user chmod and run it again;
// the original is what is left exposed. "" or "-" (standard input) and what
// is not a regular file (a pipe) say nothing.
func warnExposedFile(c proc, path string) {
	if path == "" || path == "-" {
		return
	}
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		shown := keys.ShowPath(path)
		fmt.Fprintf(c.stderr, "warning: %s, which the key was read from, is accessible by group or others (mode %04o), so the key may be exposed; the imported copy is mode 0600: delete %s (or chmod 600 it), and if others could have read it, replace the key\n", shown, perm, shown)
	}
}
