package keys

import (
	"strings"
	"unicode"
)

// A key is often pasted with what surrounded it: its JSON quotes, a comma,
// a line before it, a "key=" in front. Hiding and refusing it only when the
// whole argument is the key would print it again in every such case, so
// the checks also look at the tokens of an argument.

// SecretTokens are the parts of s that look like a private key
// (looksSecret): s itself, each field of s split at white space, commas,
// quotes, brackets and backslashes, and each part of a field split further
// at '=' and ':'. The hex of a fingerprint (sha256:<hex>) is a public
// value, never one of them.
func SecretTokens(s string) []string {
	var found []string
	if looksSecret(s) {
		found = append(found, s)
	}
	for _, field := range strings.FieldsFunc(s, isTokenSeparator) {
		if field != s && looksSecret(field) {
			found = append(found, field)
			continue
		}
		if isFingerprint(field) {
			continue
		}
		for _, part := range strings.FieldsFunc(field, func(r rune) bool { return r == '=' || r == ':' }) {
			if part != field && looksSecret(part) {
				found = append(found, part)
			}
		}
	}
	return found
}

// HasSecretToken reports whether any part of s looks like a private key
// (SecretTokens).
func HasSecretToken(s string) bool {
	return len(SecretTokens(s)) > 0
}

// isTokenSeparator reports whether r separates the fields of an argument.
func isTokenSeparator(r rune) bool {
	return unicode.IsSpace(r) || strings.ContainsRune(",;\"'`()[]{}<>\\", r)
}

// isFingerprint reports whether field is sha256:<hex>, the form of a
// fingerprint vigil prints and takes.
func isFingerprint(field string) bool {
	prefix, rest, ok := strings.Cut(field, ":")
	return ok && strings.EqualFold(prefix, "sha256") && isHex(rest)
}
