package keys

import (
	"strings"
	"testing"
)

// A key pasted as a wallet prints it (0x…) is the key, and loads as the
// same key as its plain hex.
func TestImportTakesA0xPrefixedKey(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	const plain = "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721"
	// RFC 6979 A.2.5's P-256 key; its public key from the RFC's Ux, Uy (Uy odd).
	const wantPub = "0360fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6"
	for _, in := range []string{"0x" + plain, " 0X" + strings.ToUpper(plain) + "\n"} {
		name := "k" + string(rune('a'+len(in)%26))
		k, err := s.Import(name, SchemeP256, in)
		if err != nil {
			t.Fatalf("Import(%d chars): %v", len(in), err)
		}
		if k.PublicKeyHex() != wantPub {
			t.Errorf("imported public key %s, want %s", k.PublicKeyHex(), wantPub)
		}
		loaded, err := s.Load(name)
		if err != nil || loaded.PrivateKeyHex() != plain {
			t.Fatalf("Load: %v", err)
		}
	}
}

// Every refused key text says what is wrong with it, and never quotes it.
func TestImportErrorsSayWhatIsWrongWithTheKeyText(t *testing.T) {
	const p256Order = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551"
	two := strings.Repeat("11", 32) + "\n" + strings.Repeat("22", 32) + "\n"
	pem := "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEINTuctv5E1hK1bbY8fdp+K06/nwoy/HU++CXqI9EdVhC\n-----END PRIVATE KEY-----\n"
	cases := []struct {
		name, scheme, text, want string
	}{
		{"P-256 order", SchemeP256, p256Order, "zero or not below the group order"},
		{"P-256 zero", SchemeP256, strings.Repeat("0", 64), "zero or not below the group order"},
		{"two keys", SchemeP256, two, "more than one line"},
		{"PEM", SchemeEd25519, pem, "is PEM, not hex"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := Store{Dir: t.TempDir()}
			_, err := s.Import("k", tc.scheme, tc.text)
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not say %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "public key") {
				t.Errorf("error %q speaks of a public key, for a private key", err)
			}
			for _, line := range strings.Split(tc.text, "\n") {
				if len(line) > 8 && strings.Contains(err.Error(), line) {
					t.Errorf("error %q quotes the key text", err)
				}
			}
		})
	}
}
