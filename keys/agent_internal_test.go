package keys

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
)

func TestStampSignatureNormalisesHighSToCanonicalDER(t *testing.T) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	k, err := newP256Key(priv)
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"a":1}`)
	digest := sha256.Sum256(body)
	r, s, err := ecdsa.Sign(rand.Reader, priv, digest[:])
	if err != nil {
		t.Fatal(err)
	}
	n := elliptic.P256().Params().N
	if s.Cmp(p256HalfOrder) <= 0 {
		s.Sub(n, s) // make it high: an agent returns either
	}
	blob := ssh.Marshal(sshECDSASignature{R: r, S: s})
	raw, err := stampSignature(SchemeP256, &ssh.Signature{Format: ssh.KeyAlgoECDSA256, Blob: blob})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := marshalDER(r, new(big.Int).Sub(n, s))
	if hex.EncodeToString(raw) != hex.EncodeToString(want) {
		t.Errorf("converted %x, want low-S DER %x", raw, want)
	}
	v, _ := encodeStamp(Stamp{PublicKey: k.PublicKeyHex(), Scheme: SchemeP256, Signature: hex.EncodeToString(raw)})
	st, err := Verify(v, body)
	if err != nil || st.HighS {
		t.Errorf("converted stamp: %+v %v", st, err)
	}

	bad := []*ssh.Signature{
		{Format: ssh.KeyAlgoED25519, Blob: blob},                                                    // wrong format
		{Format: ssh.KeyAlgoECDSA256, Blob: append(blob, 0)},                                        // trailing byte
		{Format: ssh.KeyAlgoECDSA256, Blob: ssh.Marshal(sshECDSASignature{R: r, S: n})},             // s out of range
		{Format: ssh.KeyAlgoECDSA256, Blob: ssh.Marshal(sshECDSASignature{R: big.NewInt(0), S: s})}, // r zero
		{Format: ssh.KeyAlgoECDSA256, Blob: blob[:10]},                                              // short
	}
	for i, sig := range bad {
		if _, err := stampSignature(SchemeP256, sig); err == nil {
			t.Errorf("bad signature %d accepted", i)
		}
	}
	if _, err := stampSignature(SchemeEd25519, &ssh.Signature{Format: ssh.KeyAlgoED25519, Blob: make([]byte, 63)}); err == nil {
		t.Error("63-byte Ed25519 signature accepted")
	}
}

// An agent that accepts the connection but never answers must not hang
// vigil: the request times out with a message about touch or PIN.
func TestAgentThatNeverAnswersTimesOut(t *testing.T) {
	dir, err := os.MkdirTemp("", "vigil-hung-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	sock := filepath.Join(dir, "s")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	a, err := DialAgent(sock)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	a.timeout = 100 * time.Millisecond
	_, err = a.Keys()
	if !errors.Is(err, ErrAgentRefused) || !strings.Contains(err.Error(), "did not answer within") {
		t.Errorf("hung agent: %v", err)
	}
	// The broken connection is dropped; the next request dials again (and
	// times out again, rather than failing on a dead connection).
	if _, err := a.Keys(); !errors.Is(err, ErrAgentRefused) {
		t.Errorf("second request: %v", err)
	}
}

func TestHardwareHint(t *testing.T) {
	for _, c := range []struct {
		typ, comment string
		want         bool
	}{
		{"ecdsa-sha2-nistp256", "/usr/lib/softhsm/libsofthsm2.so", true},
		{"ecdsa-sha2-nistp256", "/usr/lib/x86_64-linux-gnu/opensc-pkcs11.so", true},
		{"ecdsa-sha2-nistp256", "/usr/local/lib/libykcs11.2.dylib", true},
		{"ecdsa-sha2-nistp256", "YubiKey #123456 PIV Slot 9a", true},
		{"ecdsa-sha2-nistp256", "cardno:000612345678", true},
		{"ecdsa-sha2-nistp256", "ops@laptop (Secretive)", true},
		{"sk-ssh-ed25519@openssh.com", "alice", true},
		{"ecdsa-sha2-nistp256", "alice@laptop", false},
		{"ssh-ed25519", "deploy key", false},
		{"ssh-ed25519", "notes.so far", false},
		{"ssh-ed25519", "pivot-host deploy", false},
		{"ecdsa-sha2-nistp256", "Private key for PIV Authentication", true},
		{"ecdsa-sha2-nistp256", "ops@secretive.Alices-MacBook.local", true},
		{"ecdsa-sha2-nistp256", "PKCS#11 key", true},
	} {
		if got := hardwareHint(c.typ, c.comment); got != c.want {
			t.Errorf("hardwareHint(%q, %q) = %v, want %v", c.typ, c.comment, got, c.want)
		}
	}
}
