package keys

import (
	"os"
	"strings"
	"testing"
)

// A cp-style 0644 ops.private that is a hard link to prod.private: Info
// (keys show) must refuse it for the link, not describe prod's key as ops's
// with only a chmod warning; after the chmod, Load refuses it for the link.
func TestInfoRefusesHardLinkWithLooseMode(t *testing.T) {
	s := Store{Dir: t.TempDir() + "/keys"}
	prod, err := s.Generate("prod", SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	priv, pub, sch := s.Paths("prod")
	opsPriv, opsPub, opsSch := s.Paths("ops")
	if err := os.Link(priv, opsPriv); err != nil {
		t.Skip(err)
	}
	copyFile(t, pub, opsPub)
	copyFile(t, sch, opsSch)
	if err := os.Chmod(opsPriv, 0o644); err != nil { // the links share it
		t.Fatal(err)
	}
	info, err := s.Info("ops")
	if err == nil {
		t.Fatalf("Info(ops) describes a hard link to prod's key file (public key is prod's: %v)", info.PublicKeyHex == prod.PublicKeyHex())
	}
	if !strings.Contains(err.Error(), "hard link") {
		t.Errorf("Info(ops): %v; want the hard-link refusal", err)
	}
}

// A 0644 private key file of two lines: Load refuses it for the lines
// (once chmod'ed), so Info must too, not only warn of the mode.
func TestInfoRefusesTwoLinesWithLooseMode(t *testing.T) {
	s := Store{Dir: t.TempDir() + "/keys"}
	k, err := s.Generate("ops", SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	other, err := Generate(SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	priv, _, _ := s.Paths("ops")
	if err := os.WriteFile(priv, []byte(k.PrivateKeyHex()+"\n"+other.PrivateKeyHex()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(priv, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Info("ops"); err == nil || !strings.Contains(err.Error(), "more than one line") {
		t.Errorf("Info(ops) of a 0644 two-line key file: %v; want the refusal of its lines", err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
