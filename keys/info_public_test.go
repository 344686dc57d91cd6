package keys

import (
	"os"
	"strings"
	"testing"
)

// keys show and keys list print Info's public key as the one to register with
// the service: a .public file copied from another key is refused by Info and
// flagged by List, never shown as the key's.
func TestInfoRefusesAPublicFileOfAnotherKey(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	good, err := s.Generate("good", "")
	if err != nil {
		t.Fatal(err)
	}
	other, err := s.Generate("other", "")
	if err != nil {
		t.Fatal(err)
	}
	_, pubPath, _ := s.Paths("good")
	if err := os.WriteFile(pubPath, []byte(other.PublicKeyHex()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	info, err := s.Info("good")
	if err == nil || !strings.Contains(err.Error(), "does not match its private key") || !strings.Contains(err.Error(), good.PublicKeyHex()) {
		t.Errorf("Info with another key's .public: %+v, %v; want a mismatch naming the private key's public key", info, err)
	}
	list, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range list {
		if k.Name == "good" && (k.Problem == nil || k.PublicKeyHex != "") {
			t.Errorf("List shows good as %+v; want it flagged with its problem and no public key", k)
		}
		if k.Name == "other" && (k.Problem != nil || k.PublicKeyHex != other.PublicKeyHex()) {
			t.Errorf("List other = %+v", k)
		}
	}
}
