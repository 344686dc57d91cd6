package api

import (
	"crypto/ecdh"
	"crypto/rand"
	"encoding/hex"
	"testing"

	"github.com/vigil-console/vigil/keys"
)

// A service may list a P-256 key uncompressed (65 bytes) while the stamper
// holds it compressed (33): it is the console's own key all the same, so
// deleting it still warns of the lock-out, and a vote recorded with it is
// still the member's own.
func TestOwnKeyListedUncompressedIsStillOwn(t *testing.T) {
	priv, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	uncompressed := priv.PublicKey().Bytes() // 04 || X || Y
	compressed := hex.EncodeToString(compressSEC1(uncompressed))
	listed := hex.EncodeToString(uncompressed)

	other, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	otherCompressed := hex.EncodeToString(compressSEC1(other.PublicKey().Bytes()))

	key := APIKey{APIKeyID: "k1", Credential: Credential{Type: keys.CredentialAPIKeyP256, PublicKey: listed}}
	for _, scheme := range []string{keys.SchemeP256, ""} {
		if !key.HasPublicKey(scheme, compressed) {
			t.Errorf("scheme %q: the key listed uncompressed is not taken for the stamper's compressed key", scheme)
		}
		if key.HasPublicKey(scheme, otherCompressed) {
			t.Errorf("scheme %q: another key is taken for it", scheme)
		}
	}

	me := Voter{UserID: "u", PublicKey: compressed, Scheme: keys.SchemeP256}
	if !me.Signed(&Vote{PublicKey: listed, Scheme: keys.SchemeP256}) {
		t.Error("a vote recorded with the key uncompressed is not the member's own")
	}
	if me.Signed(&Vote{PublicKey: otherCompressed, Scheme: keys.SchemeP256}) {
		t.Error("another key's vote is taken for the member's own")
	}
}

// compressSEC1 is the compressed SEC1 form (02 or 03 by Y's parity, then X)
// of an uncompressed P-256 point (04 || X || Y), as SEC 1 §2.3.3 writes it.
func compressSEC1(uncompressed []byte) []byte {
	x, y := uncompressed[1:33], uncompressed[33:65]
	return append([]byte{2 + y[31]&1}, x...)
}
