package cli

import (
	"fmt"
	"strconv"

	"github.com/vigil-console/vigil/keys"
)

// strayArgs is pos, arguments given to a command that takes none, as its
// usage error gives them: the first quoted, or described when it looks like
// a private key (pasted after the wrong command, 'keys list <key>' for
// 'keys import'), which must not be printed a second time.
func strayArgs(pos []string) string {
	shown := strconv.Quote(pos[0])
	if keys.PathLooksSecret(pos[0]) {
		shown = "(" + keys.SecretArg(pos[0], "an argument") + ")"
	}
	if len(pos) > 1 {
		shown += fmt.Sprintf(" and %d more", len(pos)-1)
	}
	return shown
}
