package cli

import (
	"fmt"
	"strconv"

	"github.com/vigil-console/vigil/keys"
)

// strayArgs is pos, arguments given to a command that takes none, as its
// usage error gives them: the first shown as shownArg shows it.
func strayArgs(pos []string) string {
	shown := shownArg(pos[0], "an argument")
	if len(pos) > 1 {
		shown += fmt.Sprintf(" and %d more", len(pos)-1)
	}
	return shown
}

// shownArg is arg, where want (a command, an argument) was expected, as a
// usage error gives it: quoted, or described when it looks like a private
// key (pasted after the wrong command, 'keys list <key>' or 'keys <key>' for
// 'keys import'), which must not be printed a second time.
func shownArg(arg, want string) string {
	if keys.PathLooksSecret(arg) {
		return "(" + keys.SecretArg(arg, want) + ")"
	}
	return strconv.Quote(arg)
}
