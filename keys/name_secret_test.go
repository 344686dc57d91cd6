package keys

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A private key given where a key name goes (the profile's key = "…", keys
// import's argument) must be refused, and the refusal must not quote it:
// the name is printed in errors and becomes the key's file names.
func TestValidateNameRefusesPrivateKeys(t *testing.T) {
	secrets := map[string]string{}
	// Fixed keys: a base64url key with a '-' or '_' reads as words about 20
	// times in a million (name_secret.go's wordy), so random ones would
	// make this test fail that often.
	for _, sc := range []string{SchemeP256, SchemeSecp256k1, SchemeEd25519} {
		seed := sha256.Sum256([]byte("name test key " + sc))
		k, err := ParsePrivateHex(sc, hex.EncodeToString(seed[:]))
		if err != nil {
			t.Fatal(err)
		}
		secrets[sc+" hex"] = k.PrivateKeyHex()
		secrets[sc+" HEX"] = strings.ToUpper(k.PrivateKeyHex())
		raw, err := hex.DecodeString(k.PrivateKeyHex())
		if err != nil {
			t.Fatal(err)
		}
		secrets[sc+" base64url"] = base64.RawURLEncoding.EncodeToString(raw)
		secrets[sc+" base64"] = base64.StdEncoding.EncodeToString(raw)
		secrets[sc+" hex twice"] = k.PrivateKeyHex() + k.PrivateKeyHex() // over the length limit too
	}
	for what, secret := range secrets {
		err := ValidateName(secret)
		if err == nil {
			t.Errorf("%s: a private key is accepted as a key name", what)
			continue
		}
		if strings.Contains(err.Error(), secret[:16]) {
			t.Errorf("%s: the refusal quotes the key: %v", what, err)
		}
	}
	// Store.Import with the key as its name saves nothing under it.
	k, err := Generate(SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	s := Store{Dir: filepath.Join(t.TempDir(), "keys")}
	if _, err := s.Import(k.PrivateKeyHex(), SchemeP256, k.PrivateKeyHex()); err == nil || !strings.Contains(err.Error(), "looks like a private key") {
		t.Errorf("Import under the key's own hex: %v; want the refusal of the name", err)
	}
	if entries, _ := os.ReadDir(s.Dir); len(entries) != 0 {
		t.Errorf("Import under the key's own hex left %d files", len(entries))
	}
}

// Names people choose, long ones included, still pass.
func TestValidateNameKeepsChosenNames(t *testing.T) {
	for _, name := range []string{
		"ops", "prod", "mykey", "carol-oauth", "carol-oauth-target", "alice", "bot",
		"deadbeef", "cafe", "0123456789abcdef0123456789abcde", // hex, but short
		"ci-deploy-2024.eu-west-1.production-signer-v2",
		strings.Repeat("ops-", 16),
		"GithubActionsDeployKeyForProductionEUWest",          // mixed case, no digits
		"github-actions-deploy-key-for-production-eu-west-1", // no upper case
	} {
		if err := ValidateName(name); err != nil {
			t.Errorf("ValidateName(%q): %v", name, err)
		}
	}
}

// A private key in standard base64 given where an existing key's name goes
// (stamp --key, keys show, a profile's key) fails the character check; it
// is said to look like a private key, as the URL-safe form is, not merely
// to hold a '+': the user must learn that it may be exposed.
func TestCheckNameSaysAStandardBase64KeyLooksLikeAPrivateKey(t *testing.T) {
	seed := sha256.Sum256([]byte("check name test key"))
	for _, secret := range []string{
		base64.StdEncoding.EncodeToString(seed[:]),                // '=' padding, maybe '+' or '/'
		"JLli3nseAVclDYBE50ri8Oxs3TJ+33mvBjIB6+7ucqM=",            // the review's
		hex.EncodeToString(seed[:]) + hex.EncodeToString(seed[:]), // too long for a name
	} {
		err := CheckName(secret)
		if err == nil {
			t.Fatalf("CheckName accepts %d characters of standard base64", len(secret))
		}
		if !strings.Contains(err.Error(), "looks like a private key") || !strings.Contains(err.Error(), "treat it as exposed") {
			t.Errorf("CheckName of a private key: %v; want it said to look like a private key, and to be treated as exposed", err)
		}
		if strings.Contains(err.Error(), secret[:12]) {
			t.Errorf("CheckName quotes the private key: %v", err)
		}
	}
	// A name a key already has, which only looks random, still loads.
	if err := CheckName("JLli3nseAVclDYBE50ri8Oxs3TJ-33mvBjIB6_7ucqM"); err != nil {
		t.Errorf("CheckName refuses an existing key's URL-safe name: %v", err)
	}
}
