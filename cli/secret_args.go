package cli

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/vigil-console/vigil/internal/shellword"
	"github.com/vigil-console/vigil/keys"
)

// A private key pasted on the command line (after the wrong flag, or as a
// key name) is already in shell history; no message may print it again, to
// the terminal and to whatever logs it. Each error path describes such a
// value itself (shownArg, keys.ShowPath), and run's last step, where every
// error reaches the terminal, drops any that slipped through: a new message
// quoting its input cannot bring the key back.

// secretPlaceholder stands for a secret-looking word in a command line that
// vigil suggests; the user types their key's name there.
const secretPlaceholder = "KEY"

// secretArgs are the words of args, and the values of --flag=VALUE, that
// look like a private key (keys.PathLooksSecret), longest first, with the
// file name of a path that is one.
// The values of flags in publicHexFlags (hashes, public keys, addresses)
// are public by nature, however much they look like a key: hiding them would
// hide what was wrong with a mistyped pin and tell its user a key leaked.
func secretArgs(args []string) []string {
	var found []string
	for i, a := range args {
		if i > 0 && publicHexFlag(args[i-1]) && !strings.Contains(args[i-1], "=") {
			continue
		}
		if name, value, ok := strings.Cut(a, "="); ok && strings.HasPrefix(name, "-") {
			if publicHexFlag(name) {
				continue
			}
			a = value
		}
		if a == "" || !keys.PathLooksSecret(a) {
			continue
		}
		found = append(found, a)
		base := filepath.Base(a)
		if stem := strings.TrimSuffix(base, filepath.Ext(base)); stem != a && keys.PathLooksSecret(stem) {
			found = append(found, base, stem)
		}
	}
	slices.SortFunc(found, func(x, y string) int { return len(y) - len(x) })
	return slices.Compact(found)
}

// publicHexFlags take hashes, public keys or addresses in hex (proof pins, a
// contract's address): public values that look like a private key.
var publicHexFlags = []string{"allow-manifest", "expect-pivot", "expect-manifest-set", "expect-quorum-key", "expect-pcr", "address"}

// publicHexFlag reports whether word is one of publicHexFlags (-f or --f,
// with or without =VALUE).
func publicHexFlag(word string) bool {
	name, _, _ := strings.Cut(word, "=")
	if !strings.HasPrefix(name, "-") {
		return false
	}
	return slices.Contains(publicHexFlags, strings.TrimLeft(name, "-"))
}

// hideSecrets is msg with each of secrets (secretArgs) described rather
// than quoted.
func hideSecrets(msg string, secrets []string) string {
	for _, s := range secrets {
		if strings.Contains(msg, s) {
			msg = strings.ReplaceAll(msg, s, "("+keys.SecretArg(s, "what was asked for")+")")
		}
	}
	return msg
}

// commandLineWord is w as a suggested command line gives it: quoted for a
// shell, or KEY when it looks like a private key (it is reported exposed).
func commandLineWord(w string) (word string, secret bool) {
	if name, value, ok := strings.Cut(w, "="); ok && strings.HasPrefix(name, "-") && value != "" && keys.PathLooksSecret(value) {
		return shellword.Quote(name + "=" + secretPlaceholder), true
	}
	if w != "" && keys.PathLooksSecret(w) {
		return secretPlaceholder, true
	}
	return shellword.Quote(w), false
}
