//go:build unix

package keys

import (
	"os"
	"strings"
	"testing"
)

// Info is what 'vigil keys show NAME' prints: the public key the user
// registers as an API key of their user. In a keys directory others may
// write, another local user can put their own NAME.private and NAME.public
// in place of the user's key; Load refuses the directory, and so must Info,
// or the user would register the other user's key. The refusal says what
// fixes the directory.
func TestInfoInExposedKeysDirIsRefused(t *testing.T) {
	s, mine := sharedDir(t, 0o777)
	theirs, err := Generate(SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	priv, pub, _ := s.Paths("ops")
	for path, content := range map[string]string{priv: theirs.PrivateKeyHex(), pub: theirs.PublicKeyHex()} {
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if os.Geteuid() == 0 {
			if err := os.Chown(path, 65534, 65534); err != nil {
				t.Fatal(err)
			}
		}
	}
	info, err := s.Info("ops")
	if err == nil {
		t.Fatalf("Info in %s (mode 0777) succeeded: public key %s (the user's is %s); want it refused as Load is",
			s.Dir, info.PublicKeyHex, mine.PublicKeyHex())
	}
	if !strings.Contains(err.Error(), "-w "+s.Dir) {
		t.Errorf("Info: %v; want the chmod that fixes the directory", err)
	}
	// With the directory the user's alone again, the files another user
	// left there are still theirs (only root can test that: it takes a
	// chown), and Info refuses them as Load does.
	os.Chmod(s.Dir, 0o700)
	if os.Geteuid() == 0 {
		if _, err := s.Info("ops"); err == nil || !strings.Contains(err.Error(), "uid 65534") {
			t.Errorf("Info of a key whose files uid 65534 owns = %v; want it refused, naming the owner", err)
		}
	}
}

// A missing keys directory is a missing key to Info, as to Load.
func TestInfoInMissingKeysDirSaysNoKey(t *testing.T) {
	s := Store{Dir: t.TempDir() + "/none"}
	if _, err := s.Info("ops"); err == nil || !strings.Contains(err.Error(), `no key "ops"`) {
		t.Errorf("Info in a missing directory = %v; want no key", err)
	}
}
