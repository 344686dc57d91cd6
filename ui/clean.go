// Package ui holds the console's shared components: table with fuzzy filter,
// detail pane, confirm dialog, form, status bar, toasts and help. Every string that
// came from the server is cleaned again here, at render time (defence in depth: the
// api client has already cleaned it once when decoding).
package ui

import (
	"strings"

	"github.com/vigil-console/vigil/api"
)

// Clean makes one line of untrusted text safe for a terminal, a window title, a log
// line or the clipboard: escape sequences (CSI, OSC, DCS, …) are removed, tabs become
// spaces, and every other control character (C0, DEL, C1, line breaks) and bidi
// override or isolate is dropped.
func Clean(s string) string {
	if isPlain(s) {
		return s
	}
	// api.Sanitize is the one sanitizer (the client applies it when decoding);
	// running it again here is the defence in depth.
	return api.Sanitize(s)
}

// CleanBlock is Clean for multi-line text: newlines are kept, each line cleaned.
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
