package keys

import (
	"os"
	"strings"
	"testing"
)

// A damaged private key file (not hex) beside an empty .scheme and the key's
// own, intact .public: the error names the private file, and does not ask to
// remove the .public, the only record of which API key of the service this
// was.
func TestDamagedPrivateBesideAnEmptySchemeIsNamed(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	k, err := s.Generate("ci", "ed25519")
	if err != nil {
		t.Fatal(err)
	}
	priv, pub, sch := s.Paths("ci")
	if err := os.WriteFile(priv, []byte("not hex at all\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sch, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pub, []byte(strings.ToUpper(k.PublicKeyHex())+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = s.Load("ci")
	if err == nil {
		t.Fatal("loaded a damaged key")
	}
	if strings.Contains(err.Error(), "remove "+pub) {
		t.Errorf("the error asks to remove the intact .public %s, though the private file is what is damaged", pub)
	}
	if !strings.Contains(err.Error(), priv) {
		t.Errorf("the error does not name the damaged private file %s", priv)
	}
}

// A .public written in capitals, or padded, still tells the scheme.
func TestUppercasePublicTellsTheScheme(t *testing.T) {
	for _, sc := range []string{"ed25519", "secp256k1", "p256"} {
		s := Store{Dir: t.TempDir()}
		k, err := s.Generate("ci", sc)
		if err != nil {
			t.Fatal(err)
		}
		_, pub, sch := s.Paths("ci")
		os.WriteFile(sch, nil, 0o644)
		os.WriteFile(pub, []byte("  "+strings.ToUpper(k.PublicKeyHex())+"  \r\n"), 0o644)
		got, err := s.Load("ci")
		if err != nil || got.PublicKeyHex() != k.PublicKeyHex() {
			t.Errorf("%s: %v", sc, err)
		}
	}
}
