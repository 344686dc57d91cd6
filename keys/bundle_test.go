package keys

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha512"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func TestDecryptCredentialBundleVector(t *testing.T) {
	b, err := os.ReadFile("testdata/credential_bundle_vector.json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		ReceiverPrivateKeyHex string `json:"receiverPrivateKeyHex"`
		CredentialBundle      string `json:"credentialBundle"`
		ExpectedPlaintextHex  string `json:"expectedPlaintextHex"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	raw, _ := hex.DecodeString(v.ReceiverPrivateKeyHex)
	priv, err := ecdh.P256().NewPrivateKey(raw)
	if err != nil {
		t.Fatal(err)
	}
	pt, err := DecryptCredentialBundle(v.CredentialBundle, priv)
	if err != nil {
		t.Fatalf("decrypt fixture: %v", err)
	}
	if hex.EncodeToString(pt) != v.ExpectedPlaintextHex {
		t.Fatalf("plaintext %x, want %s", pt, v.ExpectedPlaintextHex)
	}

	other, _ := ecdh.P256().GenerateKey(rand.Reader)
	if _, err := DecryptCredentialBundle(v.CredentialBundle, other); err == nil {
		t.Error("bundle opened with the wrong key")
	}
	// Change one character: base58check catches it before HPKE does.
	c := []byte(v.CredentialBundle)
	c[10] = map[bool]byte{true: '2', false: '3'}[c[10] != '2']
	if _, err := DecryptCredentialBundle(string(c), priv); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("altered bundle: %v, want a checksum error", err)
	}
}

func TestCredentialBundleRoundTrip(t *testing.T) {
	priv, _ := ecdh.P256().GenerateKey(rand.Reader)
	secret := bytes.Repeat([]byte{0xab}, 32)
	bundle, err := EncryptCredentialBundle(hex.EncodeToString(priv.PublicKey().Bytes()), secret)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecryptCredentialBundle(bundle, priv)
	if err != nil || !bytes.Equal(got, secret) {
		t.Fatalf("round trip: %x, %v", got, err)
	}
	// The layout: 33-byte compressed encapsulated key, then 32+16 bytes of AES-GCM.
	payload, err := Base58CheckDecode(bundle)
	if err != nil || len(payload) != 33+32+16 || (payload[0] != 2 && payload[0] != 3) {
		t.Fatalf("bundle payload %x (%v)", payload, err)
	}
	if _, err := EncryptCredentialBundle("04zz", secret); err == nil {
		t.Error("non-hex target accepted")
	}
}

func TestBase58KnownValues(t *testing.T) {
	// Bitcoin's documented examples.
	if got := Base58Encode([]byte("Hello World!")); got != "2NEpo7TZRRrLZSi2U" {
		t.Errorf("Base58Encode = %s", got)
	}
	if got := Base58Encode([]byte{0, 0, 0x28, 0x7f, 0xb4, 0xcd}); got != "11233QC4" {
		t.Errorf("Base58Encode with leading zeros = %s", got)
	}
	payload, _ := hex.DecodeString("00f54a5851e9372b87810a8e60cdd2e7cfd80b6e31")
	if got := Base58CheckEncode(payload); got != "1PMycacnJaSqwwJqjawXBErnLsZ7RkXUAs" {
		t.Errorf("Base58CheckEncode = %s", got)
	}
	back, err := Base58CheckDecode("1PMycacnJaSqwwJqjawXBErnLsZ7RkXUAs")
	if err != nil || !bytes.Equal(back, payload) {
		t.Errorf("Base58CheckDecode = %x, %v", back, err)
	}
	if _, err := Base58Decode("0OIl"); err == nil {
		t.Error("characters outside the alphabet accepted")
	}
}

// openEnvelope decrypts an envelope value following DESIGN.md §3 step by
// step with the standard library, as a second implementation.
func openEnvelope(t *testing.T, target *ecdh.PrivateKey, value string) []byte {
	t.Helper()
	raw, err := hex.DecodeString(value)
	if err != nil {
		t.Fatal(err)
	}
	nonce, ephPub := raw[:12], raw[12:77]
	n := binary.LittleEndian.Uint32(raw[77:81])
	ct := raw[81:]
	if int(n) != len(ct) {
		t.Fatalf("Vec length prefix %d, %d bytes follow", n, len(ct))
	}
	eph, err := ecdh.P256().NewPublicKey(ephPub)
	if err != nil {
		t.Fatal(err)
	}
	shared, _ := target.ECDH(eph)
	tp := target.PublicKey().Bytes()
	pre := append(append(append([]byte(nil), ephPub...), tp...), shared...)
	m := hmac.New(sha512.New, pre)
	m.Write([]byte("qos_encryption_hmac_message"))
	block, _ := aes.NewCipher(m.Sum(nil)[:32])
	gcm, _ := cipher.NewGCM(block)
	aad := append(append(append(append([]byte(nil), ephPub...), 65), tp...), 65)
	pt, err := gcm.Open(nil, nonce, ct, aad)
	if err != nil {
		t.Fatalf("reference decryption: %v", err)
	}
	return pt
}

func TestEnvelopeRoundTripAndLayout(t *testing.T) {
	target, _ := ecdh.P256().GenerateKey(rand.Reader)
	secret := []byte("oauth-client-secret-123")
	v, err := EnvelopeEncrypt(target.PublicKey().Bytes(), secret)
	if err != nil {
		t.Fatal(err)
	}
	if got := openEnvelope(t, target, v); !bytes.Equal(got, secret) {
		t.Fatalf("reference decryption gave %q", got)
	}
	got, err := EnvelopeDecrypt(target, v)
	if err != nil || !bytes.Equal(got, secret) {
		t.Fatalf("EnvelopeDecrypt = %q, %v", got, err)
	}
}

func TestEnvelopeTampering(t *testing.T) {
	target, _ := ecdh.P256().GenerateKey(rand.Reader)
	v, err := EnvelopeEncrypt(target.PublicKey().Bytes(), []byte("secret"))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := hex.DecodeString(v)
	flip := func(i int) string {
		b := append([]byte(nil), raw...)
		b[i] ^= 1
		return hex.EncodeToString(b)
	}
	for name, bad := range map[string]string{
		"nonce":          flip(0),
		"ephemeral key":  flip(40),
		"length prefix":  flip(77),
		"ciphertext":     flip(81),
		"tag":            flip(len(raw) - 1),
		"truncated":      v[:len(v)-2],
		"header only":    v[:2*70],
		"not hex":        "zz" + v[2:],
		"trailing bytes": v + "00",
	} {
		if _, err := EnvelopeDecrypt(target, bad); err == nil {
			t.Errorf("%s: tampered envelope decrypted", name)
		}
	}
	other, _ := ecdh.P256().GenerateKey(rand.Reader)
	if _, err := EnvelopeDecrypt(other, v); err == nil {
		t.Error("decrypted with the wrong key")
	}
	if _, err := EnvelopeEncrypt(target.PublicKey().Bytes()[:33], nil); err == nil {
		t.Error("compressed target accepted")
	}
}
