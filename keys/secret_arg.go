package keys

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A private key pasted where a key name or a file name goes (keys show
// <hex>, a profile's key = "<hex>", --file <hex>, --target-key <hex>) is
// already in shell history or a config file; an error must not print it a
// second time, to the terminal and to whatever logs it.

// ShowName is name as an error gives it: quoted, or, when it looks like a
// private key (looksSecret), described without quoting it.
func ShowName(name string) string {
	if looksSecret(name) {
		return "(" + SecretArg(name, "a key name") + ")"
	}
	return strconv.Quote(name)
}

// ShowPath is path as an error gives it: as it is, or, when it or its file
// name (without its extension) looks like a private key, described without
// quoting it.
func ShowPath(path string) string {
	if PathLooksSecret(path) {
		return "(" + SecretArg(path, "a file name") + ")"
	}
	return path
}

// PathLooksSecret reports whether path, or its file name without its
// extension, holds a token that looks like a private key (SecretTokens)
// rather than being a file name. A path into
// a directory that exists is judged by its file name alone: its letters
// may read as base64 (a temporary directory's random digits), but a key
// pasted as a path names no directory that exists. A path that exists is a
// file name, whatever its letters (a proof stored under its SHA-256): a key
// pasted as a path names no file.
func PathLooksSecret(path string) bool {
	if _, err := os.Lstat(path); err == nil {
		return false
	}
	base := filepath.Base(path)
	if HasSecretToken(strings.TrimSuffix(base, filepath.Ext(base))) {
		return true
	}
	if dir := filepath.Dir(path); dir != "." && dir != path {
		if info, err := os.Stat(dir); err == nil && info.IsDir() {
			return false
		}
	}
	return HasSecretToken(path)
}

// SecretArg says what s, which looks like a private key, is where want (a
// key name, a file name) was expected, without quoting it.
func SecretArg(s, want string) string {
	if jwtShaped(s) {
		return fmt.Sprintf("%s that look like a provider token (a JWT), not %s; not shown: treat that token as exposed (it may be in shell history): it signs its holder in until it expires", describeText(strings.TrimSpace(s)), want)
	}
	return fmt.Sprintf("%s that look like a private key, not %s; not shown: treat that key as exposed (it may be in shell history)", describeText(strings.TrimSpace(s)), want)
}

// SecretInText is SecretArg for free text refused before it was sent (a
// name or notes, typed in a form, a flag or a body file): it claims no
// shell history, which only a command line leaves.
func SecretInText(s, want string) string {
	what := "a private key"
	if jwtShaped(s) {
		what = "a provider token (a JWT)"
	}
	return fmt.Sprintf("%s that look like %s, not %s; not shown; if it was given on a command line it is in shell history: treat it as exposed", describeText(strings.TrimSpace(s)), what, want)
}

// SecretInFile is SecretArg for a value read from a file (a config's line)
// rather than typed: nothing went to shell history, but the file holds it.
func SecretInFile(s, want string) string {
	return fmt.Sprintf("%s that look like a private key, not %s; not shown: remove it from the file, and if the file was readable by others or copied, treat that key as exposed", describeText(strings.TrimSpace(s)), want)
}

// jwtShaped reports whether every secret-looking token of s (SecretTokens)
// is a provider token (looksJWT), which the messages then name as such.
func jwtShaped(s string) bool {
	tokens := SecretTokens(s)
	for _, t := range tokens {
		if !looksJWT(strings.TrimSpace(t)) {
			return false
		}
	}
	return len(tokens) > 0
}

// noKey is Info's error for name, with no private key file at privPath in
// dir.
func noKey(name, dir, privPath string) error {
	if looksSecret(name) {
		return fmt.Errorf("no key in %s under the name given: the name is %s", dir, SecretArg(name, "a key name"))
	}
	return fmt.Errorf("no key %q in %s (expected %s)", name, dir, privPath)
}
