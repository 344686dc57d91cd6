package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The keys commands print the keys directory's path escaped: a directory
// named with OSC (retitles the terminal), ESC [2J (clears it) or U+202E
// (draws a name reversed), from --dir or a profile's keys_dir, reached the
// terminal raw in the key's file lines, though the 'Next:' line escaped it.
func TestKeysCommandsPrintTheKeysDirectoryEscaped(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "\x1b]0;PWNED\a\x1b[2J\u202ex")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	check := func(what string, want int, args ...string) {
		t.Helper()
		code, out, errOut := runVigil(t, nil, "", args...)
		wantExit(t, what, code, want, out, errOut)
		if strings.ContainsAny(out+errOut, "\x1b\a\u202e") {
			t.Errorf("%s: raw control characters reach the terminal:\n%q\n%q", what, out, errOut)
		}
		if !strings.Contains(out, `\u202ex`) {
			t.Errorf("%s: the keys directory is not shown, escaped:\n%s", what, out)
		}
	}
	check("keys list of an empty directory", 0, "keys", "list", "--dir", dir)
	check("keys generate", 0, "keys", "generate", "--dir", dir, "k1")
	check("keys show", 0, "keys", "show", "--dir", dir, "k1")
	// The warning of a private key others can read names the file twice.
	if err := os.Chmod(filepath.Join(dir, "k1.private"), 0o644); err != nil {
		t.Fatal(err)
	}
	check("keys show of a key others can read", 0, "keys", "show", "--dir", dir, "k1")
}

// login oauth-nonce names the target key's file escaped, as the keys
// commands name theirs.
func TestLoginOAuthNoncePrintsTheTargetKeyPathEscaped(t *testing.T) {
	e := newVerbEnv(t)
	path := filepath.Join(t.TempDir(), "\x1b]0;PWNED\a\u202ex.target")
	code, out, errOut := e.run("", "login", "oauth-nonce", "--target-key", path)
	wantExit(t, "login oauth-nonce", code, 0, out, errOut)
	if strings.ContainsAny(out+errOut, "\x1b\a\u202e") {
		t.Errorf("raw control characters reach the terminal:\n%q", errOut)
	}
	if !strings.Contains(errOut, `target key written to "`) || !strings.Contains(errOut, `\u202ex.target"`) {
		t.Errorf("the target key's file is not named, escaped: %q", errOut)
	}
}
