package cli

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"strings"
	"testing"
)

// A private key in PEM pasted as an argument (vigil keys import mykey
// "$(cat key.pem)") starts with '-' and so is refused as a flag, in a
// message that quotes the argument: it must be described, not printed.
// A SEC1 EC key's base64 ends in "==", which once read as --flag=VALUE and
// hid the key from the secret check (audit 280, finding 2).
func TestPrivateKeyPEMArgumentIsNeverPrintedBack(t *testing.T) {
	e := newVerbEnv(t)
	for _, key := range privateKeyPEMs(t) {
		body := pemBody(key)
		for _, args := range [][]string{
			{"keys", "import", "mykey", key},
			{"keys", "import", key},
			{"keys", "show", key},
			{"activity", "get", key},
			{"activity", "approve", "--yes", key},
			{"user", "get", key},
			{"keys", "import", "mykey", "--scheme=" + key},
			{"activity", "get", "x", "key: " + key},
		} {
			name := strings.Join(args[:len(args)-1], " ") + " <" + strings.SplitN(key, "\n", 2)[0] + ">"
			code, out, errOut := e.run("", args...)
			if code == 0 {
				t.Errorf("%s: exit 0, want a refusal", name)
			}
			if part := longestPartShown(body, out+errOut); part != "" {
				t.Errorf("%s printed %d characters of the private key:\n%s%s", name, len(part), out, errOut)
			}
			if !strings.Contains(errOut, "treat that key as exposed") {
				t.Errorf("%s: the error does not say the key is exposed:\n%s", name, errOut)
			}
		}
	}
}

// privateKeyPEMs are private keys in each PEM form a user may hold: SEC1
// ("EC PRIVATE KEY", base64 padded with "=="), PKCS#8, and blocks whose
// base64 ends in one '=', or in none.
func privateKeyPEMs(t *testing.T) []string {
	t.Helper()
	p256, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	sec1, err := x509.MarshalECPrivateKey(p256)
	if err != nil {
		t.Fatal(err)
	}
	pkcs8, err := x509.MarshalPKCS8PrivateKey(p256)
	if err != nil {
		t.Fatal(err)
	}
	_, edKey, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	edPKCS8, err := x509.MarshalPKCS8PrivateKey(edKey)
	if err != nil {
		t.Fatal(err)
	}
	random := func(n int) []byte {
		b := make([]byte, n)
		if _, err := rand.Read(b); err != nil {
			t.Fatal(err)
		}
		return b
	}
	blocks := []*pem.Block{
		{Type: "EC PRIVATE KEY", Bytes: sec1},
		{Type: "PRIVATE KEY", Bytes: pkcs8},
		{Type: "PRIVATE KEY", Bytes: edPKCS8},
		{Type: "RSA PRIVATE KEY", Bytes: random(1192)},
		{Type: "OPENSSH PRIVATE KEY", Bytes: random(400)},
		{Type: "ENCRYPTED PRIVATE KEY", Bytes: random(236)},
	}
	var keys []string
	for _, b := range blocks {
		keys = append(keys, strings.TrimSpace(string(pem.EncodeToMemory(b))))
	}
	if !strings.Contains(keys[0], "==\n-----END") {
		t.Fatalf("the SEC1 key's base64 does not end in ==:\n%s", keys[0][:30])
	}
	return keys
}

// pemBody is the base64 of key's PEM block, without its line breaks.
func pemBody(key string) string {
	lines := strings.Split(key, "\n")
	return strings.Join(lines[1:len(lines)-1], "")
}
