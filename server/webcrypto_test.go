//lint:file-ignore SA1019 these tests build keys, points and signatures from raw big-number coordinates on purpose (high-S twins, the other point of an X, WebCrypto-style keys), which only the deprecated fields express

package server

import (
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/asn1"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// highSStamper stamps as WebCrypto does (and with it the service's official
// API-key stamper): ECDSA P-256 without normalising S. It always picks the high-S
// form, the one a strict low-S verifier would refuse half of the time.
type highSStamper struct{ priv *ecdsa.PrivateKey }

func newHighSStamper(t *testing.T, privHex string) highSStamper {
	t.Helper()
	raw, err := hex.DecodeString(privHex)
	if err != nil {
		t.Fatal(err)
	}
	k, err := ecdh.P256().NewPrivateKey(raw)
	if err != nil {
		t.Fatal(err)
	}
	pub := k.PublicKey().Bytes()
	x, y := new(big.Int).SetBytes(pub[1:33]), new(big.Int).SetBytes(pub[33:])
	return highSStamper{&ecdsa.PrivateKey{PublicKey: ecdsa.PublicKey{Curve: elliptic.P256(), X: x, Y: y}, D: new(big.Int).SetBytes(raw)}}
}

func (h highSStamper) Stamp(body []byte) (string, string, error) {
	digest := sha256.Sum256(body)
	r, s, err := ecdsa.Sign(rand.Reader, h.priv, digest[:])
	if err != nil {
		return "", "", err
	}
	n := elliptic.P256().Params().N
	if s.Cmp(new(big.Int).Rsh(n, 1)) <= 0 {
		s.Sub(n, s)
	}
	der, err := asn1.Marshal(struct{ R, S *big.Int }{r, s})
	if err != nil {
		return "", "", err
	}
	stamp, err := json.Marshal(map[string]string{
		"publicKey": hex.EncodeToString(elliptic.MarshalCompressed(elliptic.P256(), h.priv.X, h.priv.Y)),
		"scheme":    keys.SchemeP256,
		"signature": hex.EncodeToString(der),
	})
	if err != nil {
		return "", "", err
	}
	return keys.HeaderStamp, base64.RawURLEncoding.EncodeToString(stamp), nil
}

// Stamps from the official SDK, found by running it against `vigil serve`: about
// half carry a high S, and the service must accept them (a faithful local
// service cannot refuse what the real one takes from its own SDK).
func TestHighSStampsFromWebCryptoAreAccepted(t *testing.T) {
	e := newEnv(t)
	st := newHighSStamper(t, e.keys["alice"].PrivateKeyHex())
	r := e.post(api.QueryPrefix+api.QueryWhoami, whoamiBody(e.org.ID), st)
	if r.status != 200 || !strings.Contains(string(r.body), e.user("alice")) {
		t.Fatalf("high-S P-256 stamp on a query: HTTP %d %s", r.status, r.body)
	}
	sub := e.body(api.TypeCreateReadOnlySession, map[string]any{}, nil)
	if r := e.post(e.submitPath("create_read_only_session"), sub, st); r.status != 200 {
		t.Fatalf("high-S P-256 stamp on a submit: HTTP %d %s", r.status, r.body)
	}
	// Still bound to the body: the same stamp over other bytes is refused.
	_, value, _ := st.Stamp(whoamiBody(e.org.ID))
	other := whoamiBody(e.org.ID + "x")
	wantError(t, e.post(api.QueryPrefix+api.QueryWhoami, other, fixedStamp(value)), 401, api.CodeUnauthenticated, "INVALID_STAMP")
}

// fixedStamp sends a stamp made earlier, whatever the body.
type fixedStamp string

func (f fixedStamp) Stamp([]byte) (string, string, error) { return keys.HeaderStamp, string(f), nil }
