package keys

import (
	"os"
	"strings"
	"testing"
)

// An empty .scheme beside a .public that is the private key's under no scheme
// (another key's .public): the error names the .public file, which is what
// is wrong, not "no .public file tells which scheme".
func TestEmptySchemeBesideAnotherKeysPublicNamesIt(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	if _, err := s.Generate("ci", "ed25519"); err != nil {
		t.Fatal(err)
	}
	other, err := s.Generate("other", "ed25519")
	if err != nil {
		t.Fatal(err)
	}
	_, pub, sch := s.Paths("ci")
	if err := os.WriteFile(pub, []byte(other.PublicKeyHex()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sch, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = s.Load("ci")
	if err == nil || !strings.Contains(err.Error(), pub) {
		t.Errorf("Load error does not name the .public file that matches the private key under no scheme (%s): %v", pub, err)
	}
}

// A save of an ed25519 key that died after creating its .scheme (empty) and
// before the key replaced the placeholder: keys list says, as Load does,
// that the key is not saved, rather than asking for a scheme, which cannot
// make a key.
func TestUnfinishedSaveWithEmptySchemeIsListedAsNotSaved(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	if _, err := s.Reserve("ci"); err != nil {
		t.Fatal(err)
	}
	_, _, sch := s.Paths("ci")
	if err := os.WriteFile(sch, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, lerr := s.Load("ci")
	list, err := s.List()
	if err != nil || len(list) != 1 {
		t.Fatalf("List: %v %+v", err, list)
	}
	if p := list[0].Problem; p == nil || !strings.Contains(p.Error(), "not saved") {
		t.Errorf("keys list says %v; the file holds no key (Load: %v)", p, lerr)
	}
}
