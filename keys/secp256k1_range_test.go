package keys_test

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"math/big"
	"testing"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/vigil-console/vigil/keys"
)

// stampFields decodes a stamp header into its three fields.
func stampFields(t *testing.T, v string) map[string]string {
	t.Helper()
	raw, err := base64.RawURLEncoding.DecodeString(v)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func encodeStampFields(t *testing.T, m map[string]string) string {
	t.Helper()
	j, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return base64.RawURLEncoding.EncodeToString(j)
}

// A secp256k1 signature whose r is 2^256 or more (here r·256+1, 33 bytes)
// is out of range for SEC 1 and for every other verifier, and the stamp
// verifier's own contract ("r or s is not below the secp256k1 group order"
// is ErrMalformedSignature). ModNScalar.SetByteSlice keeps only the first 32
// bytes of a longer slice and reports no overflow, so the out-of-range value
// is read as r and the stamp verifies.
func TestSecp256k1StampWithROrSOf2To256OrMoreIsRefused(t *testing.T) {
	k, err := keys.Generate(keys.SchemeSecp256k1)
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"organizationId":"org","timestampMs":"1","type":"ACTIVITY_TYPE_CREATE_USER_TAG","parameters":{}}`)
	_, v, err := k.Stamp(body)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := keys.Verify(v, body); err != nil {
		t.Fatalf("honest stamp refused: %v", err)
	}
	m := stampFields(t, v)
	sig, _ := hex.DecodeString(m["signature"])
	var r, s big.Int
	in := cryptobyte.String(sig)
	var seq cryptobyte.String
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) || !seq.ReadASN1Integer(&r) || !seq.ReadASN1Integer(&s) {
		t.Fatal("bad DER")
	}
	for _, tail := range []int64{0x00, 0x01, 0xff} {
		r2 := new(big.Int).Lsh(&r, 8)
		r2.Or(r2, big.NewInt(tail)) // r2 >= 2^248·r, far above the group order
		var b cryptobyte.Builder
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			b.AddASN1BigInt(r2)
			b.AddASN1BigInt(&s)
		})
		der, err := b.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		m2 := map[string]string{"publicKey": m["publicKey"], "scheme": m["scheme"], "signature": hex.EncodeToString(der)}
		if _, err := keys.Verify(encodeStampFields(t, m2), body); err == nil {
			t.Errorf("secp256k1 stamp with r = %x (>= 2^256, not below the group order) verifies", r2)
		}
		// The same for s.
		s2 := new(big.Int).Lsh(&s, 8)
		s2.Or(s2, big.NewInt(tail))
		var b2 cryptobyte.Builder
		b2.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			b.AddASN1BigInt(&r)
			b.AddASN1BigInt(s2)
		})
		der2, _ := b2.Bytes()
		m3 := map[string]string{"publicKey": m["publicKey"], "scheme": m["scheme"], "signature": hex.EncodeToString(der2)}
		if _, err := keys.Verify(encodeStampFields(t, m3), body); err == nil {
			t.Errorf("secp256k1 stamp with s = %x (>= 2^256) verifies", s2)
		}
	}
}
