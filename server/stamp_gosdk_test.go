package server

import (
	"context"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// goSDKSecp256k1 stamps as tkhq/go-sdk's APIKeyStamper does with a
// SECP256K1 key (ecdsaKey.sign: ecdsa.SignASN1 over SHA-256(body) on the
// secp256k1 curve, hex DER, S not normalised; JSON
// {"publicKey","signature","scheme"}, base64url without padding).
type goSDKSecp256k1 struct {
	priv   *ecdsa.PrivateKey
	pubHex string
}

func (g goSDKSecp256k1) Stamp(body []byte) (string, string, error) {
	h := sha256.Sum256(body)
	sig, err := ecdsa.SignASN1(rand.Reader, g.priv, h[:])
	if err != nil {
		return "", "", err
	}
	j, err := json.Marshal(struct {
		PublicKey string `json:"publicKey"`
		Signature string `json:"signature"`
		Scheme    string `json:"scheme"`
	}{g.pubHex, hex.EncodeToString(sig), keys.SchemeSecp256k1})
	if err != nil {
		return "", "", err
	}
	return keys.HeaderStamp, base64.RawURLEncoding.EncodeToString(j), nil
}

// A user whose secp256k1 API key is used through the official Go SDK is
// served every time, although about half its stamps carry a high S.
func TestOfficialGoSDKSecp256k1StampsAreAccepted(t *testing.T) {
	e := newEnv(t)
	k, err := secp256k1.GeneratePrivateKey()
	if err != nil {
		t.Fatal(err)
	}
	st := goSDKSecp256k1{priv: k.ToECDSA(), pubHex: hex.EncodeToString(k.PubKey().SerializeCompressed())}
	if _, err := e.srv.CreateUser(context.Background(), e.org.ID, UserSpec{Name: "gosdk",
		APIKeys: []APIKeySpec{{PublicKey: st.pubHex, CredentialType: api.CredentialAPIKeySecp256k1}}}); err != nil {
		t.Fatal(err)
	}
	const n = 32
	refused := 0
	for range n {
		if r := e.post(api.QueryPrefix+api.QueryWhoami, whoamiBody(e.org.ID), st); r.status != 200 {
			if refused == 0 {
				t.Errorf("whoami stamped as the official Go SDK stamps it: HTTP %d %s", r.status, r.body)
			}
			refused++
		}
	}
	if refused > 0 {
		t.Errorf("%d of %d requests refused", refused, n)
	}
}
