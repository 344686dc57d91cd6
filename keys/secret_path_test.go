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
