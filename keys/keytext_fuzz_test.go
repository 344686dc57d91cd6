package keys

import (
	"strings"
	"testing"
)

// FuzzKeyText feeds arbitrary text to what reads a key given by a user
// ('keys import', a key file) or by the network (a public key, a base58
// credential bundle): a private key that parses round-trips and signs stamps
// that verify, a refused private key's digits are never quoted back, a canonical public
// key is its own canonical form, and base58 that decodes encodes back to
// itself.
func FuzzKeyText(f *testing.F) {
	schemes := []string{SchemeP256, SchemeSecp256k1, SchemeEd25519, "p256", "secp256k1", "ed25519", ""}
	credTypes := []string{CredentialAPIKeyP256, CredentialAPIKeySecp256k1, CredentialAPIKeyEd25519, "CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR", ""}
	for i, scheme := range []string{SchemeP256, SchemeSecp256k1, SchemeEd25519} {
		k, err := Generate(scheme)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(i), k.PublicKeyHex())
	}
	for _, s := range []string{
		"", "\uFEFF" + strings.Repeat("ab", 32) + "\n", strings.Repeat("f", 64), strings.Repeat("0", 64),
		"fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141",
		"ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551",
		"04" + strings.Repeat("00", 64), "1111", "3yZe7d", "-----BEGIN PUBLIC KEY-----", "zz",
	} {
		f.Add(uint8(0), s)
	}
	body := []byte(`{"type":"x"}`)
	f.Fuzz(func(t *testing.T, which uint8, text string) {
		scheme := schemes[int(which)%len(schemes)]
		if k, err := ParsePrivateHex(scheme, text); err == nil {
			again, err := ParsePrivateHex(scheme, k.PrivateKeyHex())
			if err != nil || again.PublicKeyHex() != k.PublicKeyHex() {
				t.Fatalf("%s key does not round-trip: %v", scheme, err)
			}
			_, stamp, err := k.Stamp(body)
			if err != nil {
				t.Fatalf("stamp: %v", err)
			}
			if st, err := Verify(stamp, body); err != nil || st.PublicKey != k.PublicKeyHex() {
				t.Fatalf("stamp of an imported %s key does not verify: %v", scheme, err)
			}
		} else {
			for _, run := range strings.FieldsFunc(text, func(r rune) bool { return !isHexDigit(r) }) {
				if len(run) >= 16 && strings.Contains(err.Error(), run) {
					t.Fatalf("refusal quotes the private key's digits %q: %v", run, err)
				}
			}
		}
		credType := credTypes[int(which)%len(credTypes)]
		if pub, err := CanonicalPublicKey(credType, text); err == nil {
			if again, err := CanonicalPublicKey(credType, pub); err != nil || again != pub {
				t.Fatalf("CanonicalPublicKey(%s, %q) = %q, which canonicalises to %q, %v", credType, text, pub, again, err)
			}
		}
		if b, err := Base58Decode(text); err == nil {
			if back := Base58Encode(b); back != text {
				t.Fatalf("base58 %q decodes to %x, which encodes to %q", text, b, back)
			}
		}
		if payload, err := Base58CheckDecode(text); err == nil && Base58CheckEncode(payload) != text {
			t.Fatalf("base58check %q does not round-trip", text)
		}
	})
}
