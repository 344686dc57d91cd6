package keys_test

import (
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"math/big"
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/vigil-console/vigil/keys"
)

// goSDKSecp256k1Stamp stamps body exactly as the official Go SDK does for a
// SECP256K1 API key (tkhq/go-sdk ecdsaKey.sign: ecdsa.SignASN1 over
// SHA-256(body) on the secp256k1 curve, hex DER, S not normalised; the stamp
// JSON {"publicKey","signature","scheme"}, base64url without padding).
func goSDKSecp256k1Stamp(t *testing.T, priv *ecdsa.PrivateKey, pubHex string, body []byte) (stamp string, highS bool) {
	t.Helper()
	hash := sha256.Sum256(body)
	sig, err := ecdsa.SignASN1(rand.Reader, priv, hash[:])
	if err != nil {
		t.Fatal(err)
	}
	var r, s big.Int
	in := cryptobyte.String(sig)
	var seq cryptobyte.String
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) || !seq.ReadASN1Integer(&r) || !seq.ReadASN1Integer(&s) {
		t.Fatal("ecdsa.SignASN1 returned bad DER")
	}
	half := new(big.Int).Rsh(secp256k1.Params().N, 1)
	j, err := json.Marshal(struct {
		PublicKey string `json:"publicKey"`
		Signature string `json:"signature"`
		Scheme    string `json:"scheme"`
	}{pubHex, hex.EncodeToString(sig), keys.SchemeSecp256k1})
	if err != nil {
		t.Fatal(err)
	}
	return base64.RawURLEncoding.EncodeToString(j), s.Cmp(half) > 0
}

// About half the official Go SDK's secp256k1 stamps have a high S; every one
// of them must verify, or a client built on it fails one request in two.
func TestVerifyAcceptsOfficialGoSDKSecp256k1Stamps(t *testing.T) {
	k, err := secp256k1.GeneratePrivateKey()
	if err != nil {
		t.Fatal(err)
	}
	priv := k.ToECDSA()
	pubHex := hex.EncodeToString(k.PubKey().SerializeCompressed())
	body := []byte(`{"organizationId":"org","type":"ACTIVITY_TYPE_CREATE_USER_TAG"}`)
	const n = 64
	refused, sawHigh := 0, false
	for range n {
		stamp, high := goSDKSecp256k1Stamp(t, priv, pubHex, body)
		sawHigh = sawHigh || high
		st, err := keys.Verify(stamp, body)
		if err != nil {
			refused++
			if refused == 1 {
				t.Errorf("a stamp made as the official Go SDK makes it (high S: %v) is refused: %v", high, err)
			}
			continue
		}
		if st.HighS != high {
			t.Errorf("HighS = %v for a signature whose S is high: %v", st.HighS, high)
		}
	}
	if refused > 0 {
		t.Errorf("%d of %d official-Go-SDK secp256k1 stamps refused", refused, n)
	}
	if !sawHigh {
		t.Errorf("none of %d signatures had a high S: the test did not exercise high S", n)
	}
}
