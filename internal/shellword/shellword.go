// Package shellword writes strings as words of a POSIX shell command, for
// the commands vigil suggests a user paste (a key's repair, a vote's re-run,
// a command with its flags moved).
package shellword

import "strings"

// plainBytes are the bytes a word may hold unquoted: none of them means
// anything to a shell, at any position.
const plainBytes = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:@%+=,"

// Plain reports whether s is one shell word as it stands.
func Plain(s string) bool {
	return s != "" && strings.Trim(s, plainBytes) == ""
}

// Quote is s as one shell word: as is when Plain, else single-quoted, with
// each single quote in s closing the quoting, escaped, and reopening it.
func Quote(s string) string {
	if Plain(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
