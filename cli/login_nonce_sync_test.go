package cli

import (
	"crypto/ecdh"
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The target key login oauth-nonce writes, and the directory holding its
// name, are synced before the nonce is printed: the user signs in with that nonce, and a crash that left the
// file empty would make the token obtained useless. A key that cannot be
// synced is not kept, so no nonce is printed for it.
func TestNonceTargetKeyIsSyncedBeforeUse(t *testing.T) {
	target, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "carol.target")
	var synced []string
	err = writeTargetKey(path, target, func(f *os.File) error {
		synced = append(synced, f.Name())
		return f.Sync()
	})
	// The file, then the directory that holds its name.
	if want := []string{path, filepath.Dir(path)}; err != nil || !slices.Equal(synced, want) {
		t.Fatalf("writeTargetKey = %v; synced %q, want %q synced", err, synced, want)
	}
	if got, err := loadTargetKey(path); err != nil || !got.Equal(target) {
		t.Fatalf("the written target key does not load back: %v", err)
	}

	failing := filepath.Join(t.TempDir(), "dave.target")
	err = writeTargetKey(failing, target, func(*os.File) error { return errors.New("input/output error") })
	if err == nil {
		t.Fatal("writeTargetKey succeeded although the key could not be synced")
	}
	if _, serr := os.Lstat(failing); serr == nil {
		t.Errorf("a target key that could not be synced is left at %s", failing)
	}
}
