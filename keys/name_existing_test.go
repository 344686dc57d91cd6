package keys

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A secp256k1 private key is commonly written 0x-prefixed (Ethereum
// tooling), or pasted with a space; given where a key name goes, it is
// refused, and neither that refusal nor a reference to it as an existing
// key (a profile's key = "…") quotes it.
func TestPaddedPrivateKeyNameIsNotQuoted(t *testing.T) {
	k, err := Generate(SchemeSecp256k1)
	if err != nil {
		t.Fatal(err)
	}
	secret := k.PrivateKeyHex()
	s := Store{Dir: t.TempDir()}
	for _, name := range []string{"0x" + secret, "0X" + secret, secret + " ", " " + secret, "\t0x" + secret + "\n"} {
		err := ValidateName(name)
		if err == nil {
			t.Fatalf("%q accepted as a new key name", name)
		}
		if strings.Contains(err.Error(), secret[:16]) {
			t.Errorf("the refusal of a pasted private key quotes it: %v", err)
		}
		if err := ValidateRef(name); err == nil || strings.Contains(err.Error(), secret[:16]) {
			t.Errorf("a pasted private key as a key reference: %v", err)
		}
		if _, err := s.Load(name); err == nil || strings.Contains(err.Error(), secret[:16]) {
			t.Errorf("Load of a pasted private key: %v", err)
		}
	}
	// Without the 0x, the key is a valid file name: a reference to it that
	// finds no key must not print it either.
	if _, err := s.Load(secret); err == nil || strings.Contains(err.Error(), secret[:16]) {
		t.Errorf("Load of a private key given as a name: %v", err)
	}
}

// A long descriptive name is a new key's name; and a key saved under a long
// name by an earlier version (which accepted any valid file name) still
// lists, loads and stamps: refusing it would take its user's vote away.
func TestLongDescriptiveNames(t *testing.T) {
	for _, name := range []string{
		"Treasury-Approver-Production-EU-West-2024",
		"AWS-KMS-PROD-SIGNER-EU-WEST-1-2024-Backup01",
		"GithubActionsDeployKeyForProductionEUWest1",
		"OpsApprover2024ProductionTreasury01-target",
	} {
		if err := ValidateName(name); err != nil {
			t.Errorf("ValidateName(%q): %v", name, err)
		}
	}
}

func TestExistingKeyUnderAnyValidNameLoads(t *testing.T) {
	// Names an earlier version took: descriptive, and one ValidateName now
	// refuses as a new name (the private key's own hex, as keys import
	// once saved it).
	k, err := Generate(SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"Treasury-Approver-Production-EU-West-2024", k.PrivateKeyHex()}
	s := Store{Dir: filepath.Join(t.TempDir(), "keys")}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		priv, pub, sch := s.Paths(name)
		for path, text := range map[string]string{priv: k.PrivateKeyHex(), pub: k.PublicKeyHex(), sch: SchemeP256} {
			if err := os.WriteFile(path, []byte(text+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	list, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != len(names) {
		t.Errorf("keys list shows %d keys of %d", len(list), len(names))
	}
	for _, info := range list {
		if info.Problem != nil {
			t.Errorf("keys list: %s: %v", info.Name, info.Problem)
		}
	}
	for _, name := range names {
		loaded, err := s.Load(name)
		if err != nil {
			t.Errorf("an existing key can no longer be loaded: %v", err)
			continue
		}
		body := []byte(`{"type":"ACTIVITY_TYPE_CREATE_USERS"}`)
		_, value, err := loaded.Stamp(body)
		if err != nil {
			t.Fatalf("stamp: %v", err)
		}
		st, err := Verify(value, body)
		if err != nil || st.PublicKey != k.PublicKeyHex() {
			t.Errorf("the existing key's stamp: %+v, %v", st, err)
		}
		if _, err := s.Info(name); err != nil {
			t.Errorf("Info: %v", err)
		}
	}
}
