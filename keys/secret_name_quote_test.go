package keys

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A private key pasted where a key name goes ('vigil keys show <hex>', to
// see its public key; a profile's key = "<hex>") must never be printed
// back: docs/keys.md says such a name "is reported without being quoted".
func TestInfoDoesNotQuoteAPrivateKeyGivenAsName(t *testing.T) {
	secret := strings.Repeat("8f", 32) // 64 hex digits: a private key
	store := Store{Dir: t.TempDir()}
	if _, err := store.Info(secret); err == nil || strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), "exposed") {
		t.Errorf("Info(<private key>) in an existing keys directory: %v", err)
	}
	missing := Store{Dir: filepath.Join(t.TempDir(), "none")}
	if _, err := missing.Info(secret); err == nil || strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), "exposed") {
		t.Errorf("Info(<private key>) with no keys directory: %v", err)
	}
}

// Load refuses a keys directory others may write; its error quotes the name
// it was asked for, which may be a private key (profile key = "<hex>").
func TestLoadRefusalDoesNotQuoteAPrivateKeyGivenAsName(t *testing.T) {
	secret := strings.Repeat("8f", 32)
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	_, err := Store{Dir: dir}.Load(secret)
	if err == nil || strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), "exposed") {
		t.Errorf("Load(<private key>) in an exposed keys directory: %v", err)
	}
}
