package cli

import (
	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/internal/shellword"
)

// shownPath is a local file or directory path fit for the terminal: as it is
// when it holds nothing to escape, else quoted with every control, bidi and
// invisible character escaped (api.Quote). A directory named with ESC, OSC or
// U+202E (from --dir, or a profile's keys_dir) would otherwise retitle or
// clear the terminal, or draw as another name.
func shownPath(path string) string {
	if api.Sanitize(path) == path {
		return path
	}
	return api.Quote(path)
}

// shownWord is path as one word of a command the user may paste: quoted for
// the shell (a space would split it in two), or, when it holds a control,
// bidi or invisible character, escaped as shownPath does: safe to show,
// though no shell takes it as it stands.
func shownWord(path string) string {
	if api.Sanitize(path) == path {
		return shellword.Quote(path)
	}
	return api.Quote(path)
}
