package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A private key typed on the command line (after the console's flags,
// where a scheme, a config file, a token file or a new file name goes) is
// never printed back, whole or in part, and never names a file: docs/keys.md
// promises such a value is reported without being quoted.
func TestPrivateKeyOnTheCommandLineIsNeverPrintedBack(t *testing.T) {
	const secret = "3f1c9a7d5e2b4c6a8d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e"
	for _, tc := range []struct {
		args []string
		want string // what the message still says, so the user can act
	}{
		{[]string{"--profile", "alice", "keys", "show", secret}, "give them after the command: vigil keys show KEY --profile alice"},
		{[]string{"--profile", "alice", "stamp", "--key", secret}, "vigil stamp --key KEY --profile alice"},
		{[]string{"--profile", "alice", "stamp", "--key=" + secret}, "vigil stamp --key=KEY --profile alice"},
		{[]string{"--profile", "alice", "keys", "import", "--scheme", "p256", secret}, "vigil keys import --scheme p256 KEY --profile alice"},
		{[]string{"keys", "import", "--scheme", secret, "ops"}, "use p256, secp256k1 or ed25519"},
		{[]string{"keys", "generate", "--scheme", secret, "ops"}, "use p256, secp256k1 or ed25519"},
		{[]string{"keys", "list", "--config", secret}, "64 hex digits that look like a private key"},
		{[]string{"keys", "list", "--config=" + secret}, "64 hex digits that look like a private key"},
		{[]string{"login", "oauth", "--provider-token", secret}, "needs --target-key FILE"},
		{[]string{"login", "oauth-nonce", "--target-key", secret}, "nothing was written"},
	} {
		home := t.TempDir()
		wd, err := os.Getwd()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Chdir(home); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := runVigil(t, map[string]string{"HOME": home}, "", tc.args...)
		if err := os.Chdir(wd); err != nil {
			t.Fatal(err)
		}
		line := strings.Join(tc.args, " ")
		if code == 0 {
			t.Errorf("vigil %s: exit 0, want a refusal", line)
		}
		if part := longestPartShown(secret, out+errOut); len(part) >= 12 {
			t.Errorf("vigil %s printed %d characters of the private key (%s…):\n%s%s", line, len(part), part[:4], out, errOut)
		}
		if !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, "treat that key as exposed") {
			t.Errorf("vigil %s: %q; want it to say %q and that the key is exposed", line, errOut, tc.want)
		}
		entries, err := os.ReadDir(home)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if longestPartShown(secret, e.Name()) != "" {
				t.Errorf("vigil %s created %s, named after the private key", line, filepath.Join(home, e.Name()))
			}
		}
	}
}

// longestPartShown is the longest substring of secret, of 12 characters or
// more, that text holds ("" if none).
func longestPartShown(secret, text string) string {
	for n := len(secret); n >= 12; n-- {
		for i := 0; i+n <= len(secret); i++ {
			if strings.Contains(text, secret[i:i+n]) {
				return secret[i : i+n]
			}
		}
	}
	return ""
}

// A hash pin or an address is public, however much it looks like a key in
// hex: a mistyped one is quoted back, so its user sees what was wrong, and
// is not reported as an exposed key.
func TestPublicHexFlagValuesAreQuotedBack(t *testing.T) {
	short := strings.Repeat("ab", 31) + "a" // 63 hex digits: one short of a SHA-256
	for _, args := range [][]string{
		{"proof", "verify", "--boot-proof", os.DevNull, "--allow-manifest", short},
		{"proof", "verify", "--boot-proof", os.DevNull, "--allow-manifest=" + short},
		{"proof", "verify", "--boot-proof", os.DevNull, "--expect-pivot", short},
	} {
		code, out, errOut := runVigil(t, map[string]string{"HOME": t.TempDir()}, "", args...)
		line := strings.Join(args, " ")
		if code == 0 {
			t.Errorf("vigil %s: exit 0, want a refusal of the 63-digit pin", line)
		}
		if !strings.Contains(errOut, short) || strings.Contains(out+errOut, "exposed") {
			t.Errorf("vigil %s: %q; want the pin quoted back and no word of an exposed key", line, errOut)
		}
	}
}
