package keys

import (
	"os"
	"path/filepath"
	"testing"
)

// A path into a directory that exists is a file name, whatever its letters:
// a temporary directory's random digits once made
// "/tmp/TestLoginOAuthTargetKeyMistakes20593656/003/none" read as a pasted
// base64 key (a test failed now and then), and the error hid the path the
// user typed. A key pasted as a path names no directory that exists.
func TestPathIntoAnExistingDirectoryIsNotASecret(t *testing.T) {
	// Relative to a fresh working directory, so that the letters judged
	// are these whatever the temporary directory is called.
	t.Chdir(t.TempDir())
	dir := filepath.Join("k9QzT3xWmP2aLr7V", "003", "Hq4nB8yEc2UdZ0pK7w")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "none")
	if !looksSecret(path) {
		t.Fatalf("set-up: %s should look like base64 by its letters alone", path)
	}
	if PathLooksSecret(path) {
		t.Errorf("%s, a file name in a directory that exists, is taken for a private key", path)
	}
	// A base64 key with a '/' in it still looks like one.
	key := "q3Zk8Rm1T/xWv0LpAa9dE2fGhJkLmN4pQrStUvWxYz7="
	if !PathLooksSecret(key) {
		t.Errorf("a base64 private key given as a path is not taken for one")
	}
}

// A file that exists is a file name, though its name is hex a key's length
// (a proof stored under its SHA-256); the same name with no file is still
// taken for a pasted key (audit 214, M3).
func TestAnExistingFileNamedInHexIsNotASecret(t *testing.T) {
	t.Chdir(t.TempDir())
	const digest = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
	for _, path := range []string{digest, digest + ".json", filepath.Join("proofs", digest+".json")} {
		if !PathLooksSecret(path) {
			t.Errorf("%s, which names no file, is not taken for a key", path)
		}
	}
	if err := os.Mkdir("proofs", 0o700); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{digest, digest + ".json", filepath.Join("proofs", digest+".json")} {
		if err := os.WriteFile(path, []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
		if PathLooksSecret(path) {
			t.Errorf("%s, a file that exists, is taken for a private key", path)
		}
	}
}
