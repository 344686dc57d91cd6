package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// --out - writes the reply to standard output, whole and alone, so that it
// can be piped into 'proof verify --boot-proof -'; the report goes to
// standard error, and no file named "-" appears.
func TestProofFetchOutDashWritesTheReplyToStandardOutput(t *testing.T) {
	e := newVerbEnv(t)
	root := filepath.Join(t.TempDir(), "demo-root.pem")
	if err := os.WriteFile(root, e.demo.Info.DemoRootPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	code, out, errOut := e.run("", "proof", "fetch", "--app", "signer", "--root", root, "--out", "-")
	if code != 0 {
		t.Fatalf("--out -: exit %d\n%s", code, errOut)
	}
	if _, err := os.Lstat("-"); err == nil {
		t.Errorf("--out - wrote a file named -")
	}
	var reply api.BootProofResponse
	if err := json.Unmarshal([]byte(out), &reply); err != nil || reply.BootProof.AwsAttestationDocB64 == "" {
		t.Errorf("--out -: standard output should be the reply alone (%v):\n%s", err, out)
	}
	if !strings.Contains(errOut, "Verdict: VERIFIED") {
		t.Errorf("--out -: the report should be on standard error:\n%s", errOut)
	}
	code, vout, verr := e.run(out, "proof", "verify", "--boot-proof", "-", "--root", root)
	if code != 0 || !strings.Contains(vout, "Verdict: VERIFIED") {
		t.Errorf("the reply of --out - does not verify: exit %d\n%s\n%s", code, vout, verr)
	}
}

// --out - with a flag that needs standard output or a file is refused,
// naming the flag to drop.
func TestProofFetchOutDashRefusesJSONAndForce(t *testing.T) {
	e := newVerbEnv(t)
	for flag, want := range map[string]string{"--json": "drop --json", "--force": "drop --force"} {
		code, out, errOut := e.run("", "proof", "fetch", "--app", "signer", "--out", "-", flag)
		if code != exitUsage || !strings.Contains(errOut, want) || out != "" {
			t.Errorf("--out - %s: exit %d, want %d and %q\n%s\n%s", flag, code, exitUsage, want, out, errOut)
		}
	}
}
