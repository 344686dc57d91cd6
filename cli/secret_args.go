package cli

import (
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
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
// file name of a path that is one, and the key-looking tokens inside each
// (keys.SecretTokens: a key pasted with its quotes, a comma or a line
// before it).
// The values of flags in publicHexFlags (hashes, public keys, addresses)
// are public by nature, however much they look like a key: hiding them would
// hide what was wrong with a mistyped pin and tell its user a key leaked.
func secretArgs(args []string) []string {
	var found []string
	for i, a := range args {
		prev := ""
		if i > 0 {
			prev = args[i-1]
		}
		for _, w := range secretWords(prev, a) {
			found = append(found, w)
			base := filepath.Base(w)
			if stem := strings.TrimSuffix(base, filepath.Ext(base)); stem != w && keys.PathLooksSecret(stem) {
				found = append(found, base, stem)
			}
			found = append(found, keys.SecretTokens(w)...)
		}
	}
	slices.SortFunc(found, func(x, y string) int { return len(y) - len(x) })
	return slices.Compact(found)
}

// secretWords are the parts of word a, after prev, that look like a private
// key: VALUE of --flag=VALUE, and a itself, each judged on its own, so that
// the check fails closed. Reading a word as --flag=VALUE goes by its shape,
// and a padded base64url key that starts with '-' and holds no '_' has a
// flag's shape with an empty VALUE (audit 289, finding 1). Nothing of a
// value of publicHexFlags is one.
func secretWords(prev, a string) []string {
	value, public := argValue(prev, a)
	if public {
		return nil
	}
	var found []string
	if value != "" && keys.PathLooksSecret(value) {
		found = append(found, value)
	}
	if value != a && keys.PathLooksSecret(a) {
		found = append(found, a)
	}
	return found
}

// argValue is the value word a carries, after prev: a itself, or VALUE of
// --flag=VALUE; public when the flag it is the value of (prev, or its own
// --flag=) is one of publicHexFlags. A word is --flag=VALUE only when what
// comes before its '=' is a flag's name: a PEM private key starts with '-'
// and its base64 often ends in '=', and read as a flag it would be judged by
// its last line alone.
func argValue(prev, a string) (value string, public bool) {
	if name, v, ok := strings.Cut(a, "="); ok && flagName.MatchString(name) {
		return v, publicHexFlag(name)
	}
	return a, publicHexFlag(prev) && flagName.MatchString(prev)
}

// flagName matches a flag as a command line gives it: -name or --name.
var flagName = regexp.MustCompile(`^--?[A-Za-z][A-Za-z0-9-]*$`)

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
// than quoted, in any of the forms a message may quote it in (secretForms).
func hideSecrets(msg string, secrets []string) string {
	for _, s := range secrets {
		for _, form := range secretForms(s) {
			re := regexp.MustCompile("(?i)" + regexp.QuoteMeta(form))
			msg = re.ReplaceAllLiteralString(msg, "("+keys.SecretArg(s, "what was asked for")+")")
		}
	}
	return msg
}

// secretForms are the ways a message may quote secret word s, longest
// first: as given, trimmed of white space, without 0x, without its leading
// '-' and trailing '=' (the flag package names --KEY= as -KEY), and each
// escaped as %q escapes it (a trailing newline as \n). hideSecrets matches
// them regardless of case, as a verb may upper-case what it quotes.
func secretForms(s string) []string {
	trimmed := strings.TrimSpace(s)
	candidates := []string{s, trimmed, strings.TrimPrefix(strings.TrimPrefix(trimmed, "0x"), "0X")}
	// Only a core as long as a key's: a short one could be an ordinary word.
	if core := strings.TrimRight(strings.TrimLeft(trimmed, "-"), "="); core != trimmed && len(core) >= 32 {
		candidates = append(candidates, core)
	}
	var forms []string
	for _, f := range candidates {
		quoted := strconv.Quote(f)
		forms = append(forms, f, quoted[1:len(quoted)-1])
	}
	forms = slices.DeleteFunc(forms, func(f string) bool { return strings.TrimSpace(f) == "" })
	slices.SortFunc(forms, func(x, y string) int { return len(y) - len(x) })
	return slices.Compact(forms)
}

// commandLineWord is w, after prev, as a suggested command line gives it:
// quoted for a shell, or KEY when it, or its VALUE as --flag=VALUE, looks
// like a private key (it is reported exposed) and is no value of
// publicHexFlags (secretWords).
func commandLineWord(prev, w string) (word string, secret bool) {
	secrets := secretWords(prev, w)
	if len(secrets) == 0 {
		return shellword.Quote(w), false
	}
	if secrets[0] != w {
		// VALUE of --flag=VALUE is the key: the flag stays.
		name, _, _ := strings.Cut(w, "=")
		return shellword.Quote(name + "=" + secretPlaceholder), true
	}
	return secretPlaceholder, true
}
