package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/keys"
)

// runCLI runs vigil with args, stdin and an environment whose
// XDG_CONFIG_HOME is xdg; it returns the exit code, stdout and stderr.
func runCLI(t *testing.T, xdg, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	env := map[string]string{"XDG_CONFIG_HOME": xdg, "HOME": filepath.Join(xdg, "home")}
	c := proc{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut, getenv: func(k string) string { return env[k] }}
	code := run(context.Background(), c, args)
	return code, out.String(), errOut.String()
}

func TestKeysGenerateShowList(t *testing.T) {
	xdg := t.TempDir()
	dir := filepath.Join(xdg, "vigil", "keys")

	code, out, errOut := runCLI(t, xdg, "", "keys", "generate", "ops")
	if code != 0 {
		t.Fatalf("generate: exit %d, %s", code, errOut)
	}
	k, err := keys.Store{Dir: dir}.Load("ops")
	if err != nil {
		t.Fatalf("generated key does not load from the default directory: %v", err)
	}
	if k.Scheme() != keys.SchemeP256 || !strings.Contains(out, k.PublicKeyHex()) || !strings.Contains(out, "CREDENTIAL_TYPE_API_KEY_P256") {
		t.Errorf("generate output %q lacks the public key / credential type", out)
	}
	if strings.Contains(out, k.PrivateKeyHex()) {
		t.Error("generate printed the private key")
	}

	// Flags after the name work too.
	if code, _, errOut := runCLI(t, xdg, "", "keys", "generate", "bot", "--scheme", "ed25519"); code != 0 {
		t.Fatalf("generate bot: exit %d, %s", code, errOut)
	}
	code, out, _ = runCLI(t, xdg, "", "keys", "show", "bot")
	bot, _ := keys.Store{Dir: dir}.Load("bot")
	if code != 0 || !strings.Contains(out, bot.PublicKeyHex()) || !strings.Contains(out, keys.SchemeEd25519) ||
		!strings.Contains(out, "CREDENTIAL_TYPE_API_KEY_ED25519") || !strings.Contains(out, filepath.Join(dir, "bot.private")) {
		t.Errorf("show bot: exit %d, %q", code, out)
	}
	if strings.Contains(out, bot.PrivateKeyHex()) {
		t.Error("show printed the private key")
	}

	code, out, _ = runCLI(t, xdg, "", "keys", "list")
	if code != 0 || strings.Index(out, "bot") > strings.Index(out, "ops") || !strings.Contains(out, k.PublicKeyHex()) {
		t.Errorf("list: exit %d, %q", code, out)
	}

	// One damaged key does not hide the others; its problem is named, quoted.
	os.WriteFile(filepath.Join(dir, "bad.private"), []byte(k.PrivateKeyHex()+"\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "bad.scheme"), []byte("NOT_A_SCHEME\x1b[31m\n"), 0o600)
	code, out, errOut = runCLI(t, xdg, "", "keys", "list")
	if code != 1 || !strings.Contains(out, "bot") || !strings.Contains(out, k.PublicKeyHex()) || !strings.Contains(out, "bad") ||
		!strings.Contains(errOut, "key bad: scheme file") || strings.Contains(errOut, "\x1b") {
		t.Errorf("list with a damaged key: exit %d, %q, %q", code, out, errOut)
	}
	os.Remove(filepath.Join(dir, "bad.private"))
	os.Remove(filepath.Join(dir, "bad.scheme"))

	// Never overwrites: exit 1, the file is named, the key is unchanged.
	code, _, errOut = runCLI(t, xdg, "", "keys", "generate", "--scheme", "secp256k1", "ops")
	if code != 1 || !strings.Contains(errOut, filepath.Join(dir, "ops.")) {
		t.Errorf("second generate: exit %d, %q", code, errOut)
	}
	again, _ := keys.Store{Dir: dir}.Load("ops")
	if again.PrivateKeyHex() != k.PrivateKeyHex() {
		t.Error("key overwritten")
	}
}

func TestKeysUsageErrors(t *testing.T) {
	xdg := t.TempDir()
	cases := [][]string{
		{"keys"},
		{"keys", "frobnicate"},
		{"keys", "generate"},
		{"keys", "generate", "a", "b"},
		{"keys", "generate", "--scheme", "rsa", "a"},
		{"keys", "generate", "../evil"},
		{"keys", "generate", "--nope", "a"},
		{"keys", "show"},
		{"keys", "list", "extra"},
		{"keys", "import", "k"}, // no --scheme
	}
	for _, args := range cases {
		if code, _, errOut := runCLI(t, xdg, "", args...); code != 2 || errOut == "" {
			t.Errorf("%q: exit %d (%q), want 2 with a message", args, code, errOut)
		}
	}
	if _, err := os.Stat(filepath.Join(xdg, "evil.private")); err == nil {
		t.Error("path traversal wrote a file")
	}
}

func TestKeysHelp(t *testing.T) {
	for _, args := range [][]string{{"keys", "-h"}, {"keys", "generate", "-h"}, {"keys", "list", "-h"}, {"keys", "show", "-h"}, {"keys", "import", "--help"}, {"stamp", "-h"}} {
		code, out, _ := runCLI(t, t.TempDir(), "", args...)
		if code != 0 || !strings.Contains(out, "Usage") || !strings.Contains(out, "vigil "+args[0]) || !strings.Contains(out, "Example") {
			t.Errorf("%q: exit %d, help %q", args, code, out)
		}
	}
}

func TestKeysImport(t *testing.T) {
	xdg := t.TempDir()
	dir := filepath.Join(xdg, "vigil", "keys")
	// RFC 8032 §7.1 test 1, from standard input.
	seed := "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"
	code, out, errOut := runCLI(t, xdg, seed+"\n", "keys", "import", "--scheme", "ed25519", "rfc")
	if code != 0 || !strings.Contains(out, "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a") {
		t.Fatalf("import from stdin: exit %d, %q %q", code, out, errOut)
	}
	if strings.Contains(out, seed) {
		t.Error("import printed the private key")
	}
	// From a file.
	f := filepath.Join(t.TempDir(), "k.hex")
	os.WriteFile(f, []byte(strings.Repeat("0", 63)+"1"), 0o600)
	if code, _, errOut := runCLI(t, xdg, "", "keys", "import", "--scheme", "secp256k1", "--file", f, "one"); code != 0 {
		t.Fatalf("import from file: exit %d, %s", code, errOut)
	}
	k, err := keys.Store{Dir: dir}.Load("one")
	if err != nil || k.Scheme() != keys.SchemeSecp256k1 {
		t.Fatalf("imported key: %v", err)
	}
	// Bad hex: exit 1, and the message does not echo the secret attempt.
	secretish := "zz" + strings.Repeat("ab", 31)
	code, _, errOut = runCLI(t, xdg, secretish, "keys", "import", "--scheme", "p256", "bad")
	if code != 1 || !strings.Contains(errOut, "not hex") || strings.Contains(errOut, secretish) {
		t.Errorf("bad import: exit %d, %q", code, errOut)
	}
	if code, _, errOut := runCLI(t, xdg, "", "keys", "import", "--scheme", "p256", "empty"); code != 1 || !strings.Contains(errOut, "no key") {
		t.Errorf("empty import: exit %d, %q", code, errOut)
	}
}

// TestKeysUseTheActiveProfilesKeysDir: with a profile chosen (VIGIL_CONFIG,
// VIGIL_PROFILE, --profile), the keys verbs work in that profile's keys_dir,
// where its key is read from, rather than in the default directory; a chosen
// profile that cannot be read is an error, and --dir still wins.
func TestKeysUseTheActiveProfilesKeysDir(t *testing.T) {
	xdg, cfgDir := t.TempDir(), t.TempDir()
	config := filepath.Join(cfgDir, "config.toml")
	const toml = `default_profile = "alice"

[profiles.alice]
base_url = "http://127.0.0.1:1"
organization_id = "o"
key = "alice"
keys_dir = "alice-keys"

[profiles.bob]
base_url = "http://127.0.0.1:1"
organization_id = "o"
key = "bob"
keys_dir = "bob-keys"
`
	if err := os.WriteFile(config, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	runEnv := func(env map[string]string, args ...string) (int, string, string) {
		t.Helper()
		out.Reset()
		errOut.Reset()
		env["XDG_CONFIG_HOME"], env["HOME"] = xdg, filepath.Join(xdg, "home")
		c := proc{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(k string) string { return env[k] }}
		code := run(context.Background(), c, args)
		return code, out.String(), errOut.String()
	}
	withConfig := map[string]string{"VIGIL_CONFIG": config}

	if code, _, e := runEnv(withConfig, "keys", "generate", "alice"); code != 0 {
		t.Fatalf("generate with VIGIL_CONFIG: exit %d, %s", code, e)
	}
	if _, err := (keys.Store{Dir: filepath.Join(cfgDir, "alice-keys")}).Load("alice"); err != nil {
		t.Fatalf("the key is not in the default profile's keys_dir: %v", err)
	}
	if code, _, e := runEnv(map[string]string{"VIGIL_CONFIG": config, "VIGIL_PROFILE": "bob"}, "keys", "generate", "bob"); code != 0 {
		t.Fatalf("generate as bob: exit %d, %s", code, e)
	}
	if code, o, _ := runEnv(withConfig, "keys", "list"); code != 0 || !strings.Contains(o, "alice") || strings.Contains(o, "bob") {
		t.Fatalf("list with VIGIL_CONFIG: exit %d, %q; want alice's keys_dir", code, o)
	}
	if code, o, _ := runEnv(withConfig, "keys", "list", "--profile", "bob"); code != 0 || !strings.Contains(o, "bob") || strings.Contains(o, "alice ") {
		t.Fatalf("list --profile bob: exit %d, %q; want bob's keys_dir", code, o)
	}
	if code, o, e := runEnv(withConfig, "keys", "show", "bob", "--profile", "bob"); code != 0 || !strings.Contains(o, filepath.Join(cfgDir, "bob-keys", "bob.private")) {
		t.Fatalf("show --profile bob: exit %d, %q %s", code, o, e)
	}
	// No config chosen and none at the default path: the default directory.
	if code, o, _ := runEnv(map[string]string{}, "keys", "list"); code != 0 || !strings.Contains(o, "No keys in "+filepath.Join(xdg, "vigil", "keys")) {
		t.Fatalf("list without a config: exit %d, %q", code, o)
	}
	// A chosen profile that does not exist is an error that says what to do.
	if code, _, e := runEnv(withConfig, "keys", "list", "--profile", "carol"); code != 1 || !strings.Contains(e, `no profile "carol"`) || !strings.Contains(e, "--dir") {
		t.Fatalf("list --profile carol: exit %d, %s", code, e)
	}
	if code, _, e := runEnv(withConfig, "keys", "list", "--dir", xdg, "--profile", "bob"); code != 2 || !strings.Contains(e, "one or the other") {
		t.Fatalf("--dir with --profile: exit %d, %s", code, e)
	}
	if code, o, _ := runEnv(withConfig, "keys", "list", "--dir", filepath.Join(cfgDir, "bob-keys")); code != 0 || !strings.Contains(o, "bob") {
		t.Fatalf("--dir with VIGIL_CONFIG set: exit %d, %q; --dir wins", code, o)
	}
}
