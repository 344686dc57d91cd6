package api

import "unicode/utf8"

// ClipBytes cuts s to at most most bytes, at a character boundary, and marks
// the cut with "…". Half a character would show as a \xNN escape (or U+FFFD
// in JSON), as if what was quoted had been tampered with.
func ClipBytes(s string, most int) string {
	if len(s) <= most {
		return s
	}
	n := most
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
