package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A key pasted with what surrounded it (a comma, its JSON quotes, a line
// before it, a "key=" in front) is hidden, and refused by --type and --dir
// before anything is read, made or sent, as the bare key is (audit 220, M3).
func TestAKeyInsideAnArgumentIsHiddenAndRefused(t *testing.T) {
	e := newVerbEnv(t)
	wrapped := []string{hexKey + ",", "create_policy," + hexKey, `"` + hexKey + `"`, "x\n" + hexKey, "key=" + hexKey, "[" + hexKey + "]", hexKey + `\n`}
	for _, w := range wrapped {
		for _, args := range [][]string{
			{"activity", "list", "--type", w},
			{"keys", "list", "--dir", w},
			{w},
		} {
			code, out, errOut := e.run("", args...)
			line := strings.Join(args[:len(args)-1], " ") + " " + strings.ReplaceAll(strings.Replace(w, hexKey, "KEY", 1), "\n", `\n`)
			if code != exitUsage {
				t.Errorf("%s: exit %d, want %d\n%s%s", line, code, exitUsage, out, errOut)
			}
			if !strings.Contains(errOut, "treat that key as exposed") {
				t.Errorf("%s: the error does not say the key is exposed:\n%s", line, errOut)
			}
			if part := longestPartShown(hexKey, strings.ToLower(out+errOut)); part != "" {
				t.Errorf("%s printed %d characters of the key:\n%s%s", line, len(part), out, errOut)
			}
		}
	}
}

// A fingerprint (sha256:<hex>) is a public value, and an existing path a
// file name, whatever their letters: neither is hidden nor refused.
func TestAFingerprintOrAnExistingPathIsNoKey(t *testing.T) {
	fingerprint := "sha256:" + hexKey
	code, _, errOut := runVigil(t, map[string]string{"HOME": t.TempDir()}, "", fingerprint+",")
	if !strings.Contains(errOut, fingerprint) || strings.Contains(errOut, "exposed") {
		t.Errorf("vigil %s,: exit %d\n%s\nwant the fingerprint quoted, with no word of an exposed key", fingerprint, code, errOut)
	}
	got := hideSecrets("unknown command "+`"`+fingerprint+`"`, secretArgs([]string{fingerprint}))
	if !strings.Contains(got, fingerprint) {
		t.Errorf("the fingerprint is hidden: %s", got)
	}
	home := t.TempDir()
	t.Chdir(home)
	dir := "keys," + hexKey
	if err := os.Mkdir(filepath.Join(home, dir), 0o700); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runVigil(t, map[string]string{"HOME": home}, "", "keys", "list", "--dir", dir); code != 0 {
		t.Errorf("keys list --dir of an existing directory: exit %d\n%s%s", code, out, errOut)
	}
}
