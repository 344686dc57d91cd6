package keys

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
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

// Hex of the wrong length is said to be that, not "not hex": 63 digits is a
// key whose leading zero a tool dropped (printed as a number), and it is not
// padded (the user says which key it is); 0x is dropped whatever follows.
func TestImportSaysHexOfTheWrongLengthIsThat(t *testing.T) {
	const plain = "0c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f672"
	cases := []struct{ name, text, want string }{
		{"63 digits", plain[1:], "private key is 63 hex digits; a P-256, secp256k1 or Ed25519 private key is 64: if a leading zero was dropped"},
		{"0x and 63 digits", "0x" + plain[1:], "private key is 63 hex digits;"},
		{"0x and 62 digits", "0x" + plain[2:], "private key is 31 bytes;"},
		{"0x and 66 digits", "0x" + plain + "00", "private key is 33 bytes;"},
		{"a letter not hex", plain[:10] + "g" + plain[11:], "character 11 is not a hex digit"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := Store{Dir: t.TempDir()}
			_, err := s.Import("k", SchemeP256, tc.text)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
			if strings.Contains(err.Error(), plain[12:30]) {
				t.Errorf("error %q quotes the key text", err)
			}
			if _, err := s.Load("k"); err == nil {
				t.Error("a key was stored")
			}
		})
	}
}

// A key file Notepad saved as UTF-8 starts with a byte-order mark: the key
// after it is the key.
func TestImportDropsAByteOrderMark(t *testing.T) {
	const plain = "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721"
	const wantPub = "0360fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6"
	s := Store{Dir: t.TempDir()}
	for i, in := range []string{"\uFEFF" + plain + "\r\n", "\uFEFF0x" + plain + "\n"} {
		name := "k" + string(rune('a'+i))
		k, err := s.Import(name, SchemeP256, in)
		if err != nil {
			t.Fatalf("Import(BOM, case %d): %v", i, err)
		}
		if k.PublicKeyHex() != wantPub {
			t.Errorf("imported public key %s, want %s", k.PublicKeyHex(), wantPub)
		}
	}
}

// A PEM public key (or certificate) is the wrong file: the error says so
// and that import needs the private key, without an openssl command that
// prints a private key, which cannot work on it.
func TestImportOfAPublicKeySaysItIsOne(t *testing.T) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKIXPublicKey(&priv.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	pub := string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
	cert := "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"
	for text, want := range map[string]string{
		pub:  "this is a PEM public key (-----BEGIN PUBLIC KEY-----), not a private key: import needs the private key",
		cert: "this is a PEM certificate (-----BEGIN CERTIFICATE-----), which holds only a public key: import needs the private key",
	} {
		_, err := Store{Dir: t.TempDir()}.Import("k", SchemeP256, text)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want one saying %q", err, want)
		} else if strings.Contains(err.Error(), "openssl") {
			t.Errorf("error %q gives a private key's openssl command for a public key", err)
		}
	}
}
