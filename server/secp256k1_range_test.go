package server

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"math/big"
	"testing"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// wideRStamper stamps with k, then re-encodes the DER signature with r
// replaced by r·256+0x01: a value >= 2^256, so not below the secp256k1
// group order, and refused by every other secp256k1 verifier.
type wideRStamper struct{ k *keys.Key }

func (a wideRStamper) Stamp(body []byte) (string, string, error) {
	name, v, err := a.k.Stamp(body)
	if err != nil {
		return "", "", err
	}
	raw, _ := base64.RawURLEncoding.DecodeString(v)
	m := map[string]string{}
	if err := json.Unmarshal(raw, &m); err != nil {
		return "", "", err
	}
	sig, _ := hex.DecodeString(m["signature"])
	var r, s big.Int
	in := cryptobyte.String(sig)
	var seq cryptobyte.String
	in.ReadASN1(&seq, cbasn1.SEQUENCE)
	seq.ReadASN1Integer(&r)
	seq.ReadASN1Integer(&s)
	r.Lsh(&r, 8).Or(&r, big.NewInt(1))
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddASN1BigInt(&r)
		b.AddASN1BigInt(&s)
	})
	der, _ := b.Bytes()
	m["signature"] = hex.EncodeToString(der)
	j, _ := json.Marshal(m)
	return name, base64.RawURLEncoding.EncodeToString(j), nil
}

// The service must refuse, not record in the vote as the voter's
// signature, a secp256k1 stamp whose r is out of range (>= 2^256): the
// verifier keeps only r's first 32 bytes. An auditor checking the recorded
// vote with any standard secp256k1 verifier finds a signature that does
// not verify.
func TestServiceRefusesSecp256k1StampWithROf2To256OrMore(t *testing.T) {
	e := newEnv(t)
	k, err := keys.Generate(keys.SchemeSecp256k1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.srv.CreateUser(context.Background(), e.org.ID, UserSpec{Name: "k1", Root: true,
		APIKeys: []APIKeySpec{{PublicKey: k.PublicKeyHex(), CredentialType: api.CredentialAPIKeySecp256k1}}}); err != nil {
		t.Fatal(err)
	}
	body := e.body(api.TypeCreateUserTag, api.CreateUserTagParams{UserTagName: "wide-r", UserIDs: []string{}}, nil)
	r := e.post(e.submitPath("create_user_tag"), body, wideRStamper{k})
	if r.status != 401 {
		sig := ""
		if len(r.act.Votes) > 0 {
			sig = r.act.Votes[0].Signature
		}
		t.Fatalf("secp256k1 stamp with r >= 2^256: HTTP %d (want 401 INVALID_STAMP); recorded vote signature %s", r.status, sig)
	}
}
