package ui

import "strings"

// PastedLine makes a paste one line for an input (every input of the
// console is one line): line breaks and tabs inside become a space each,
// those at the ends go. Spaces are kept as pasted, so a quoted value stays
// what it was; the input drops any other control character. A field that
// takes an expression joins its pastes with Field.OneLine instead.
func PastedLine(s string) string {
	s = strings.Trim(s, "\r\n\t")
	s = strings.ReplaceAll(s, "\r\n", " ")
	return strings.Map(func(r rune) rune {
		if r == '\r' || r == '\n' || r == '\t' {
			return ' '
		}
		return r
	}, s)
}
