package cli

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/keys"
)

func TestStampMakesAStampOverExactBytes(t *testing.T) {
	xdg := t.TempDir()
	for _, scheme := range []string{"p256", "secp256k1", "ed25519"} {
		if code, _, errOut := runCLI(t, xdg, "", "keys", "generate", "--scheme", scheme, scheme); code != 0 {
			t.Fatalf("generate %s: %s", scheme, errOut)
		}
	}
	body := `{"organizationId":"o","parameters":{}}`
	bodyFile := filepath.Join(t.TempDir(), "body.json")
	os.WriteFile(bodyFile, []byte(body+"\n"), 0o600)

	for _, scheme := range []string{"p256", "secp256k1", "ed25519"} {
		t.Run(scheme, func(t *testing.T) {
			for _, src := range []struct {
				name   string
				args   []string
				stdin  string
				signed string
			}{
				{"--body", []string{"--body", body}, "", body},
				{"stdin", nil, body, body},
				{"--body-file keeps the newline", []string{"--body-file", bodyFile}, "", body + "\n"},
			} {
				code, out, errOut := runCLI(t, xdg, src.stdin, append([]string{"stamp", "--key", scheme}, src.args...)...)
				if code != 0 {
					t.Fatalf("%s: exit %d, %s", src.name, code, errOut)
				}
				if !strings.HasSuffix(out, "\n") || strings.Count(out, "\n") != 1 {
					t.Fatalf("%s: output %q is not one line", src.name, out)
				}
				value := strings.TrimSuffix(out, "\n")
				if _, err := keys.Verify(value, []byte(src.signed)); err != nil {
					t.Errorf("%s: stamp does not verify over the exact bytes: %v", src.name, err)
				}
			}
		})
	}
}

func TestStampVerifyPublishedVector(t *testing.T) {
	b, err := os.ReadFile("testdata/stamps/x_stamp_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []struct{ Body, XStamp string }
	if err := json.Unmarshal(b, &vs); err != nil || len(vs) == 0 {
		t.Fatalf("fixture: %v", err)
	}
	v := vs[0]
	raw, _ := base64.RawURLEncoding.DecodeString(v.XStamp)
	var claims map[string]string
	json.Unmarshal(raw, &claims)

	code, out, errOut := runCLI(t, t.TempDir(), "", "stamp", "--verify", v.XStamp, "--body", v.Body)
	if code != 0 || !strings.Contains(out, claims["publicKey"]) || !strings.Contains(out, "SIGNATURE_SCHEME_TK_API_P256") || !strings.Contains(out, "valid") {
		t.Fatalf("published vector: exit %d, %q %q", code, out, errOut)
	}

	// A pasted header line works too.
	if code, _, errOut := runCLI(t, t.TempDir(), "", "stamp", "--verify", "X-Stamp: "+v.XStamp, "--body", v.Body); code != 0 {
		t.Errorf("pasted header line: exit %d, %q", code, errOut)
	}

	// The same body with a newline added, as an editor would save it.
	f := filepath.Join(t.TempDir(), "body.json")
	os.WriteFile(f, []byte(v.Body+"\n"), 0o600)
	code, out, errOut = runCLI(t, t.TempDir(), "", "stamp", "--verify", v.XStamp, "--body-file", f)
	if code != 1 || !strings.Contains(out, "INVALID") || !strings.Contains(errOut, "signature does not verify") || !strings.Contains(errOut, "newline") {
		t.Errorf("body with newline: exit %d, %q %q", code, out, errOut)
	}

	// A padded stamp: the reason names the padding.
	code, _, errOut = runCLI(t, t.TempDir(), "", "stamp", "--verify", base64.URLEncoding.EncodeToString(raw), "--body", v.Body)
	if code != 1 || !strings.Contains(errOut, "without padding") {
		t.Errorf("padded stamp: exit %d, %q", code, errOut)
	}
}

func TestStampVerifyQuotesHostileClaims(t *testing.T) {
	j := `{"publicKey":"\u001b]0;pwned\u0007","scheme":"\u001b[31mX","signature":"00"}`
	stamp := base64.RawURLEncoding.EncodeToString([]byte(j))
	code, out, errOut := runCLI(t, t.TempDir(), "", "stamp", "--verify", stamp, "--body", "{}")
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	if strings.ContainsRune(out+errOut, 0x1b) || strings.ContainsRune(out+errOut, 0x07) {
		t.Errorf("escape sequence reached the terminal: %q %q", out, errOut)
	}
	// Invisible characters Go's %q leaves as they are (a variation selector, a
	// Hangul filler) are escaped too.
	j = `{"publicKey":"ab\ufe0f","scheme":"X\u3164Y\ufe0f","signature":"00"}`
	code, out, errOut = runCLI(t, t.TempDir(), "", "stamp", "--verify", base64.RawURLEncoding.EncodeToString([]byte(j)), "--body", "{}")
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	wantOnlyEscaped(t, "stamp --verify", out+errOut)
	if !strings.Contains(out, `scheme:     "X\u3164Y\ufe0f"`) {
		t.Errorf("the scheme should be quoted with its invisible characters escaped:\n%s", out)
	}
}

func TestStampUsageAndFailures(t *testing.T) {
	xdg := t.TempDir()
	runCLI(t, xdg, "", "keys", "generate", "k")
	usage := [][]string{
		{"stamp", "--body", "{}"},                                   // neither --key nor --verify
		{"stamp", "--key", "k", "--verify", "x", "--body", "{}"},    // both
		{"stamp", "--key", "k", "--body", "{}", "--body-file", "f"}, // two bodies
		{"stamp", "--key", "k", "extra"},                            // positional
		{"stamp", "--key", "../k", "--body", "{}"},                  // bad name
		{"stamp", "--bogus"},
	}
	for _, args := range usage {
		if code, _, errOut := runCLI(t, xdg, "", args...); code != 2 || errOut == "" {
			t.Errorf("%q: exit %d (%q), want 2", args, code, errOut)
		}
	}
	if code, _, errOut := runCLI(t, xdg, "", "stamp", "--key", "missing", "--body", "{}"); code != 1 || !strings.Contains(errOut, "vigil keys generate missing") {
		t.Errorf("missing key: exit %d, %q", code, errOut)
	}
	priv := filepath.Join(xdg, "vigil", "keys", "k.private")
	os.Chmod(priv, 0o644)
	if code, _, errOut := runCLI(t, xdg, "", "stamp", "--key", "k", "--body", "{}"); code != 1 || !strings.Contains(errOut, "chmod 600 "+priv) {
		t.Errorf("readable key: exit %d, %q", code, errOut)
	}
	if code, _, errOut := runCLI(t, xdg, "", "stamp", "--key", "k", "--body-file", filepath.Join(xdg, "nope.json")); code != 2 || !strings.Contains(errOut, "nope.json") {
		t.Errorf("missing body file: exit %d, %q", code, errOut)
	}
}
