package server

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	k1ecdsa "github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
	"golang.org/x/crypto/sha3"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// walletEIP191 stamps as @turnkey/wallet-stamper's WalletStamper does for an
// Ethereum wallet: personal_sign (EIP-191: keccak256("\x19Ethereum Signed
// Message:\n" + len + body)), the 65-byte signature turned into DER of r and
// s (v dropped), the compressed secp256k1 key, scheme
// SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191.
type walletEIP191 struct {
	priv   *secp256k1.PrivateKey
	pubHex string
}

const schemeWalletEIP191 = "SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191"

func (w walletEIP191) Stamp(body []byte) (string, string, error) {
	h := sha3.NewLegacyKeccak256()
	h.Write([]byte("\x19Ethereum Signed Message:\n" + strconv.Itoa(len(body))))
	h.Write(body)
	sig := k1ecdsa.SignCompact(w.priv, h.Sum(nil), false) // v || r || s
	derInt := func(b []byte) []byte {
		if b[0]&0x80 != 0 {
			b = append([]byte{0}, b...)
		}
		return append([]byte{2, byte(len(b))}, b...)
	}
	rs := append(derInt(sig[1:33]), derInt(sig[33:65])...)
	j, err := json.Marshal(map[string]string{"publicKey": w.pubHex, "scheme": schemeWalletEIP191,
		"signature": hex.EncodeToString(append([]byte{0x30, byte(len(rs))}, rs...))})
	if err != nil {
		return "", "", err
	}
	return keys.HeaderStamp, base64.RawURLEncoding.EncodeToString(j), nil
}

// The wallet stamper's Ethereum scheme is not supported (SPEC.md lists
// P256, SECP256K1 and ED25519 only): its user must be told which scheme was
// refused and which ones the service takes, even with the key registered.
func TestWalletStamperEIP191SchemeIsRefusedByName(t *testing.T) {
	e := newEnv(t)
	k, err := secp256k1.GeneratePrivateKey()
	if err != nil {
		t.Fatal(err)
	}
	w := walletEIP191{priv: k, pubHex: hex.EncodeToString(k.PubKey().SerializeCompressed())}
	if _, err := e.srv.CreateUser(context.Background(), e.org.ID, UserSpec{Name: "wallet",
		APIKeys: []APIKeySpec{{PublicKey: w.pubHex, CredentialType: api.CredentialAPIKeySecp256k1}}}); err != nil {
		t.Fatal(err)
	}
	r := e.post(api.QueryPrefix+api.QueryWhoami, whoamiBody(e.org.ID), w)
	if r.status != 401 || len(r.err.Details) == 0 || r.err.Details[0].ErrorCode != "INVALID_STAMP" {
		t.Fatalf("whoami stamped by the wallet stamper (Ethereum): HTTP %d %s, want 401 INVALID_STAMP", r.status, r.body)
	}
	for _, want := range []string{schemeWalletEIP191, "not supported", keys.SchemeP256, keys.SchemeSecp256k1, keys.SchemeEd25519} {
		if !strings.Contains(r.err.Message, want) {
			t.Errorf("the refusal %q does not name %s", r.err.Message, want)
		}
	}
}
