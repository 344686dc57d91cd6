package keys

import (
	"fmt"
	"strings"
)

// The .public and .scheme files only describe a key, but what they hold may
// be a secret all the same: a cp of the wrong file, a restore that swapped
// them, a script that wrote both from one variable. Like ParsePrivateHex,
// their errors never quote such content (it would reach the terminal, the
// scrollback, CI logs and the console's error line); they say what is wrong.

// publicMismatch is the error of pubPath, whose first line got is not k's
// public key; advice says what to do about a file of another key.
func publicMismatch(name, pubPath, got string, k *Key, advice string) error {
	if strings.EqualFold(got, k.PrivateKeyHex()) {
		return fmt.Errorf("key %q: %s holds the private key, not the public key; remove it (vigil derives the public key from the private key), and if others could read it, treat the key as exposed", name, pubPath)
	}
	return fmt.Errorf("key %q: %s does not match its private key (it holds %s, not shown: it may be a secret; the private key's public key is %s); %s", name, pubPath, describeText(got), k.PublicKeyHex(), advice)
}

// schemeFileError is the error of the scheme file schPath, whose first line
// is no scheme; privLine is the first line of the key's private key file.
func schemeFileError(schPath, line, privLine string) error {
	const write = "write the key's scheme into it: p256, secp256k1 or ed25519"
	if privLine != "" && strings.EqualFold(line, privLine) {
		return fmt.Errorf("scheme file %s holds the private key, not the key's scheme (%w); %s, and if others could read it, treat the key as exposed", schPath, ErrUnknownScheme, write)
	}
	if quotable(line) {
		return fmt.Errorf("scheme file %s: %w: %q; %s", schPath, ErrUnknownScheme, line, write)
	}
	return fmt.Errorf("scheme file %s: %w: it holds %s, not shown: it may be a secret; %s", schPath, ErrUnknownScheme, describeText(line), write)
}

// quotable reports whether s may be quoted in a message: short, and without
// the long run of hex digits a key is, alone or after other text ("ed25519
// 6b4d…" would show half a private key).
func quotable(s string) bool {
	return len(s) <= 40 && !hasHexRun(s, 16)
}

// hasHexRun reports whether s holds n or more hex digits in a row.
func hasHexRun(s string, n int) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		if isHex(s[i : i+1]) {
			run++
			if run >= n {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

// describeText says what s is without quoting it.
func describeText(s string) string {
	if isHex(s) {
		return fmt.Sprintf("%d hex digits", len(s))
	}
	return fmt.Sprintf("%d characters", len(s))
}

func isHex(s string) bool {
	return s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !('0' <= r && r <= '9' || 'a' <= r && r <= 'f' || 'A' <= r && r <= 'F')
	})
}
