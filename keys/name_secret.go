package keys

import (
	"fmt"
	"strings"
)

// A key's name is printed everywhere (errors, keys list, file names, the
// profile), so a private key given where a new name goes (keys generate,
// keys import, login's --name) must be refused before anything prints it or
// saves a file under it. An existing key is loaded and listed whatever its
// name: an earlier version accepted any valid name, and refusing it now
// would take a quorum member's key (their vote) away.

// quoteLimit is the longest name an error quotes; a longer one is described
// by its length, as it may be a pasted key that no check recognised.
const quoteLimit = 31

// secretNameError refuses name, which looks like a secret; it says what
// name looks like without quoting it.
func secretNameError(name string) error {
	what := describeText(name)
	if jwtShaped(name) {
		return fmt.Errorf("key name (%s) looks like a provider token (a JWT), not a key name; choose a name such as ops, and give the token with --provider-token FILE or - (standard input); if the token was written where others can read it, treat it as exposed", what)
	}
	return fmt.Errorf("key name (%s) looks like a private key, not a key name; choose a name such as ops, and paste the key when asked ('vigil keys import --scheme SCHEME ops'); if the key was written where others can read it, treat it as exposed", what)
}

// quoteName is name for an error message: quoted when short, else its length.
func quoteName(name string) string {
	if len(name) > quoteLimit {
		return "(" + describeText(name) + ")"
	}
	return fmt.Sprintf("%q", name)
}

// looksSecret reports whether name looks like a key rather than a name, once
// surrounding spaces and a 0x are dropped: 32 or more hex digits (a P-256,
// secp256k1 or ed25519 private key is 64; ':' may separate byte pairs), 40
// or more base64 characters mixing upper case, lower case and digits that do
// not read as words (wordy), or a provider token (looksJWT).
func looksSecret(name string) bool {
	s := strings.TrimSpace(name)
	if looksJWT(s) {
		return true
	}
	if len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		s = s[2:]
	}
	if h := strings.ReplaceAll(s, ":", ""); len(h) >= 32 && isHex(h) {
		return true
	}
	if len(s) < 40 || strings.ContainsFunc(s, func(r rune) bool {
		return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("+/=-_", r))
	}) {
		return false
	}
	return strings.ContainsAny(s, "abcdefghijklmnopqrstuvwxyz") &&
		strings.ContainsAny(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") &&
		strings.ContainsAny(s, "0123456789") &&
		!wordy(s)
}

// wordy reports whether s reads as words: split into words (a capitalised
// or lower-case word, an upper-case run, a number), they average 3.5 letters
// or more when '-' or '_' separate them, 4.5 when they run together
// (CamelCase). Random base64 averages about 2: of a million keys of each
// base64 alphabet, none run-together and about 20 in a million with a '-' or
// '_' read as words (so are accepted). Treasury-Approver-Production-EU-West-2024
// averages 6.
func wordy(s string) bool {
	chars, words := 0, 0
	for i := 0; i < len(s); {
		j := wordEnd(s, i)
		if j == i {
			i++
			continue
		}
		chars += j - i
		words++
		i = j
	}
	if words == 0 {
		return false
	}
	// chars/words >= 3.5 or 4.5, in integers.
	if strings.ContainsAny(s, "-_") {
		return 2*chars >= 7*words
	}
	return 2*chars >= 9*words
}

// wordEnd is where the word starting at s[i] ends; i when s[i] starts none.
func wordEnd(s string, i int) int {
	lower := func(j int) bool { return j < len(s) && 'a' <= s[j] && s[j] <= 'z' }
	upper := func(j int) bool { return j < len(s) && 'A' <= s[j] && s[j] <= 'Z' }
	digit := func(j int) bool { return j < len(s) && '0' <= s[j] && s[j] <= '9' }
	j := i + 1
	switch {
	case digit(i):
		for digit(j) {
			j++
		}
	case lower(i), upper(i) && lower(j):
		for lower(j) {
			j++
		}
	case upper(i):
		// An upper-case run ends before the capital of a following word.
		for upper(j) && !lower(j+1) {
			j++
		}
	default:
		return i
	}
	return j
}
