// Package ui holds the console's shared components: table with fuzzy filter,
// detail pane, confirm dialog, form, status bar, toasts and help. Every string that
// came from the server is cleaned here, at render time, with api's sanitizer: the
// console's client keeps strings exact, so this is where they are escaped.
package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
)

// Clean makes one line of untrusted text safe for a terminal, a window title, a log
// line or the clipboard, the way api.Sanitize does (the one display path for
// server strings): control characters, escape sequences, bidi controls and
// invisible characters are shown escaped (\u001b[31m, \u200b, \u202e, \n), so
// nothing acts on the terminal and nothing hides.
func Clean(s string) string {
	if isPlain(s) {
		return s
	}
	// api.Sanitize is the one sanitizer (the client applies it when decoding);
	// running it again here is the defence in depth, and costs nothing on text
	// it already escaped.
	return api.Sanitize(s)
}

// CleanBlock is Clean for multi-line text (pretty JSON, wrapped details): the
// newlines are kept, each line is cleaned.
func CleanBlock(s string) string {
	if isPlain(s) {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Clean(l)
	}
	return strings.Join(lines, "\n")
}

// isPlain reports whether s is printable ASCII only: the common case, kept cheap
// because tables clean every visible cell on every frame.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// CaretIndent is how many terminal cells a caret under column col (1-based,
// in characters) of line goes in, once the line is shown cleaned: tabs and
// invisible characters take the width of their escapes, wide characters two
// cells each. The console's expression fields and the CLI's diagnostics
// place their `^` with it.
func CaretIndent(line string, col int) int {
	rs := []rune(line)
	col = min(max(col-1, 0), len(rs))
	return ansi.StringWidth(Clean(string(rs[:col])))
}
