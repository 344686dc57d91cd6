package cli

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"
)

// A private key pasted as an argument is described, never printed back,
// whatever its encoding: hex, base64, base64url with or without padding,
// with a leading '-', or PEM. A padded base64url key (a JWK's "d") that
// starts with '-' and holds no '_' has the shape of --flag= with an empty
// value, and was printed in the "flag provided but not defined" error of
// every verb (audit 289, finding 1).
func TestPrivateKeyInAnyEncodingIsNeverPrintedBack(t *testing.T) {
	e := newVerbEnv(t)
	for _, tc := range privateKeyEncodings(t) {
		for _, args := range [][]string{
			{"keys", "import", "mykey", tc.key},
			{"keys", "show", tc.key},
			{"activity", "get", tc.key},
			{"activity", "approve", "--yes", tc.key},
			{"user", "get", tc.key},
			// Before the verb: the refusal suggests the command line.
			{"--nosuch", "activity", "get", tc.key},
			{tc.key, "activity", "get", "x"},
		} {
			name := strings.ReplaceAll(strings.Join(args, " "), tc.key, "<"+tc.encoding+">")
			code, out, errOut := e.run("", args...)
			if code == 0 {
				t.Errorf("%s: exit 0, want a refusal", name)
			}
			if part := longestPartShown(tc.secret, out+errOut); part != "" {
				t.Errorf("%s printed %d characters of the private key:\n%s%s", name, len(part), out, errOut)
			}
			// Refused as a flag, the word is described as the key it is.
			if strings.HasPrefix(tc.key, "-") && !strings.Contains(errOut, "treat that key as exposed") {
				t.Errorf("%s: the error does not say the key is exposed:\n%s", name, errOut)
			}
		}
	}
}

// encodedKey is a private key as pasted (key) and the part of it that must
// not be shown (secret: without PEM armour or a 0x prefix).
type encodedKey struct {
	encoding, key, secret string
}

// privateKeyEncodings are a 32-byte private key in each encoding a user may
// paste, one of them a padded base64url key that starts with '-' and holds
// no '_', and the PEM forms of privateKeyPEMs.
func privateKeyEncodings(t *testing.T) []encodedKey {
	t.Helper()
	seed := make([]byte, 32)
	dashed := ""
	for range 1000 {
		if _, err := rand.Read(seed); err != nil {
			t.Fatal(err)
		}
		seed[0] |= 0xf8 // the first six bits 62: base64url '-'
		if s := base64.URLEncoding.EncodeToString(seed); !strings.Contains(s, "_") {
			dashed = s
			break
		}
	}
	if !strings.HasPrefix(dashed, "-") || !strings.HasSuffix(dashed, "=") {
		t.Fatalf("no padded base64url key starting with '-' and without '_': %d characters", len(dashed))
	}
	h := hex.EncodeToString(seed)
	std := base64.StdEncoding.EncodeToString(seed)
	raw := base64.RawURLEncoding.EncodeToString(seed)
	found := []encodedKey{
		{"hex", h, h},
		{"0x hex", "0x" + h, h},
		{"base64", std, std},
		{"base64url padded, leading -", dashed, dashed},
		{"base64url unpadded, leading -", raw, raw},
		{"base64url found in audit 289", "-QtBchnh8eCBbVX78Xde2pSGbEx3dOMr1mstdQFeVSc=", "-QtBchnh8eCBbVX78Xde2pSGbEx3dOMr1mstdQFeVSc="},
		// Two leading '-': the flag package names it with one, so the
		// message quoted none of the word's own forms (1 run in ~400 drew one).
		{"base64url padded, two leading -", "--hqbyPpqnRyAoeHHTpHhuK89R4IpgJgBiIBbuesEHA=", "--hqbyPpqnRyAoeHHTpHhuK89R4IpgJgBiIBbuesEHA="},
		{"- then base64", "-" + std, std},
	}
	for _, pem := range privateKeyPEMs(t)[:2] {
		found = append(found, encodedKey{strings.SplitN(pem, "\n", 2)[0], pem, pemBody(pem)})
	}
	return found
}
