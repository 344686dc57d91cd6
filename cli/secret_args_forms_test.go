package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hexKey looks like a P-256 private key in hex (it is no real one).
const hexKey = "3f1c9a7d5e2b4c6a8d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e"

// A file named by its SHA-256, as content-addressed evidence is stored, is
// a file name: an error about it quotes it, and says nothing of an exposed
// key (audit 214, M3).
func TestAFileNamedByItsDigestIsNoExposedKey(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855.json")
	if err := os.WriteFile(name, []byte(`{"bootProof":{}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runVigil(t, map[string]string{"HOME": t.TempDir()}, "", "proof", "verify", "--boot-proof", name)
	if code == 0 || strings.Contains(errOut, "exposed") || strings.Contains(errOut, "look like a private key") {
		t.Errorf("proof verify of a boot proof named by its digest: exit %d\n%s\nwant its error, with no word of an exposed key", code, errOut)
	}
}

// Given before the verb, a pin or an address is still public: the hint
// that moves the flags after the verb quotes it, so the line can be pasted,
// and says nothing of an exposed key (audit 214, M3).
func TestPublicHexBeforeTheVerbIsQuotedInTheHint(t *testing.T) {
	const pivot = "4d5e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b407c1"
	const address = "0x6B175474E89094C44Da98b954EedeAC495271d0F"
	for _, args := range [][]string{
		{"--expect-pivot", pivot, "proof", "verify", "--boot-proof", "boot.json"},
		{"--expect-pivot=" + pivot, "proof", "verify", "--boot-proof", "boot.json"},
		{"--address", address, "contract", "create", "--type", "ethereum", "--label", "DAI", "--file", "dai.json"},
	} {
		_, _, errOut := runVigil(t, map[string]string{"HOME": t.TempDir()}, "", args...)
		line := strings.Join(args, " ")
		if !strings.Contains(errOut, "give them after the command") {
			t.Fatalf("vigil %s: %s\nwant the hint to give the flags after the command", line, errOut)
		}
		if strings.Contains(errOut, "exposed") || strings.Contains(errOut, " KEY") || !strings.Contains(errOut, args[0]) {
			t.Errorf("vigil %s:\n%s\nwant %s quoted in the hint, and no word of an exposed key", line, errOut, args[0])
		}
	}
	// A key before the verb is still hidden.
	_, _, errOut := runVigil(t, map[string]string{"HOME": t.TempDir()}, "", "--key", hexKey, "activity", "list")
	if !strings.Contains(errOut, "--key KEY") || longestPartShown(hexKey, errOut) != "" {
		t.Errorf("vigil --key HEX activity list:\n%s\nwant the key written KEY", errOut)
	}
}

// A message may quote a pasted key trimmed, escaped or upper-cased: each
// form is hidden (audit 214, L1).
func TestHideSecretsHidesTheFormsAMessageQuotes(t *testing.T) {
	for _, tc := range []struct{ word, msg string }{
		{" " + hexKey, `--user "` + hexKey + `" is neither the id nor the name of a user`},
		{hexKey + "\n", `user get "` + hexKey + `\n": not found`},
		{hexKey, "note: ACTIVITY_TYPE_" + strings.ToUpper(hexKey) + " is not a type vigil knows"},
		{"0x" + hexKey, "key " + hexKey + " refused"},
		{"\t" + hexKey + " ", `"\t` + hexKey + ` " is not a name`},
	} {
		args := []string{"user", "get", tc.word}
		got := hideSecrets(tc.msg, secretArgs(args))
		if longestPartShown(hexKey, strings.ToLower(got)) != "" {
			t.Errorf("word %q, message %q: shown as %q", tc.word, tc.msg, got)
		}
		if !strings.Contains(got, "treat that key as exposed") {
			t.Errorf("word %q: %q does not say the key is exposed", tc.word, got)
		}
	}
}

// A keys directory that looks like a private key is refused before
// anything is listed or made: a directory named after the key would print
// it (audit 214, L1).
func TestKeysDirThatLooksLikeAKeyIsRefused(t *testing.T) {
	for _, args := range [][]string{
		{"keys", "list", "--dir", hexKey},
		{"keys", "generate", "--dir", hexKey, "ops"},
	} {
		home := t.TempDir()
		t.Chdir(home)
		code, out, errOut := runVigil(t, map[string]string{"HOME": home}, "", args...)
		line := strings.Join(args[:2], " ")
		if code != exitUsage || !strings.Contains(errOut, "--dir takes a keys directory, and nothing was read or made") {
			t.Errorf("%s --dir KEY: exit %d\n%s%s\nwant a usage error saying --dir takes a directory", line, code, out, errOut)
		}
		if part := longestPartShown(hexKey, out+errOut); part != "" {
			t.Errorf("%s --dir KEY printed %d characters of the key:\n%s%s", line, len(part), out, errOut)
		}
		if _, err := os.Stat(filepath.Join(home, hexKey)); !os.IsNotExist(err) {
			t.Errorf("%s --dir KEY made a directory named after the key (%v)", line, err)
		}
	}
	// A directory that exists is a directory, whatever its name.
	home := t.TempDir()
	t.Chdir(home)
	if err := os.Mkdir(hexKey, 0o700); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runVigil(t, map[string]string{"HOME": home}, "", "keys", "list", "--dir", hexKey); code != 0 {
		t.Errorf("keys list --dir of an existing directory: exit %d\n%s%s", code, out, errOut)
	}
}

// Against the local service: a key pasted with white space around it, or as
// an activity type, is not printed back, trimmed, escaped or upper-cased;
// as a type it is not even sent (audit 214, L1).
func TestKeyPastedIntoVerbsIsNotPrintedBack(t *testing.T) {
	e := newVerbEnv(t)
	for _, args := range [][]string{
		{"mfa", "create", "--user", " " + hexKey, "--name", "x", "--condition", "true", "--step", "passkey", "--order", "0"},
		{"user", "get", hexKey + "\n"},
		{"activity", "list", "--type", hexKey},
	} {
		code, out, errOut := e.run("", args...)
		line := strings.Join(args[:2], " ")
		if code == 0 {
			t.Errorf("%s with a key: exit 0\n%s%s", line, out, errOut)
		}
		if part := longestPartShown(hexKey, strings.ToLower(out+errOut)); part != "" {
			t.Errorf("%s printed %d characters of the key:\n%s%s", line, len(part), out, errOut)
		}
	}
}
