package keys

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
)

// One key pair has one name whichever form recorded it: compressed or not,
// in any case, signed as an API key or a passkey. The name is the curve and
// the form stamps carry (CanonicalPublicKey), also when SigningKeyOf takes
// its short way for a key already in that form.
func TestSigningKeyOfNamesEveryFormOfAKeyAlike(t *testing.T) {
	for _, scheme := range []string{SchemeP256, SchemeSecp256k1, SchemeEd25519} {
		k, err := Generate(scheme)
		if err != nil {
			t.Fatal(err)
		}
		compressed := k.PublicKeyHex()
		canonical, err := CanonicalPublicKey(CredentialTypeOfScheme(scheme), compressed)
		if err != nil {
			t.Fatal(err)
		}
		forms := []string{compressed, strings.ToUpper(compressed)}
		schemes := []string{scheme, scheme}
		raw, _ := hex.DecodeString(compressed)
		switch scheme {
		case SchemeP256:
			pub, err := parseP256Public(raw, false)
			if err != nil {
				t.Fatal(err)
			}
			e, err := pub.ECDH()
			if err != nil {
				t.Fatal(err)
			}
			forms = append(forms, hex.EncodeToString(e.Bytes()), compressed)
			schemes = append(schemes, scheme, SchemeWebAuthn)
		case SchemeSecp256k1:
			pub, err := secp256k1.ParsePubKey(raw)
			if err != nil {
				t.Fatal(err)
			}
			forms = append(forms, hex.EncodeToString(pub.SerializeUncompressed()))
			schemes = append(schemes, scheme)
		}
		curve, _, _ := strings.Cut(SigningKeyOf(scheme, compressed), ":")
		for i, form := range forms {
			if got, want := SigningKeyOf(schemes[i], form), curve+":"+canonical; got != want {
				t.Errorf("%s key as %s %q is named %q, want %q", scheme, schemes[i], form, got, want)
			}
		}
	}
	// A key that is no point is named as written, in lower case, on either way.
	bad := "02" + strings.Repeat("ff", 32)
	if got, want := SigningKeyOf(SchemeP256, strings.ToUpper(bad)), SigningKeyOf(SchemeP256, bad); got != want {
		t.Errorf("a key that is no point is named %q in upper case and %q in lower", got, want)
	}
}

// SigningKeyOf runs for every vote each time an activity's policies are
// evaluated; a key in the form stamps carry must not cost a point decoding.
func BenchmarkSigningKeyOf(b *testing.B) {
	k, err := Generate(SchemeP256)
	if err != nil {
		b.Fatal(err)
	}
	pub := k.PublicKeyHex()
	for b.Loop() {
		SigningKeyOf(SchemeP256, pub)
	}
}
