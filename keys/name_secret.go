package keys

import (
	"fmt"
	"strings"
)

// A key's name is printed everywhere (errors, keys list, file names, the
// profile), so a private key given where a name goes (pasted as the
// profile's key = "…", or as keys import's argument) must be refused
// before anything prints it or saves a file under it.

// secretNameError refuses name, which looks like a secret; it says what
// name looks like without quoting it.
func secretNameError(name string) error {
	what := describeText(name)
	return fmt.Errorf("key name (%s) looks like a private key, not a key name; choose a name such as ops, and paste the key when asked ('vigil keys import --scheme SCHEME ops'); if the key was written where others can read it, treat it as exposed", what)
}

// looksSecret reports whether name looks like a key rather than a name: a
// run of 32 or more hex digits (a P-256, secp256k1 or ed25519 private key is
// 64), or 40 or more base64 characters mixing upper case, lower case and
// digits with no '.' (a base64 key is 44). No name people choose looks so.
func looksSecret(name string) bool {
	if len(name) >= 32 && isHex(name) {
		return true
	}
	if len(name) < 40 || strings.ContainsFunc(name, func(r rune) bool {
		return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("+/=-_", r))
	}) {
		return false
	}
	return strings.ContainsAny(name, "abcdefghijklmnopqrstuvwxyz") &&
		strings.ContainsAny(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") &&
		strings.ContainsAny(name, "0123456789")
}
