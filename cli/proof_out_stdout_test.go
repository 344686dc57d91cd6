package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// --out /dev/stdout with standard output appended to a file (>> all.json)
// must append the proof there as the shell asked: replacing the file by
// rename would drop what it held before, and send the report printed after
// into the unlinked copy.
func TestProofFetchOutStdoutAppendsToTheRedirectedFile(t *testing.T) {
	e := newVerbEnv(t)
	bin := vigilBinary(t)
	root := filepath.Join(t.TempDir(), "demo-root.pem")
	if err := os.WriteFile(root, e.demo.Info.DemoRootPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{"/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"} {
		if _, err := os.Lstat(out); err != nil {
			continue // not on this system
		}
		path := filepath.Join(t.TempDir(), "all.json")
		const earlier = "earlier content line\n"
		if err := os.WriteFile(path, []byte(earlier), 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "proof", "fetch", "--app", "signer", "--root", root, "--out", out, "--profile", "alice")
		cmd.Env = append(os.Environ(), "VIGIL_CONFIG="+e.config)
		cmd.Stdout = f
		var errOut bytes.Buffer
		cmd.Stderr = &errOut
		err = runChild(cmd)
		f.Close()
		got, rerr := os.ReadFile(path)
		if rerr != nil {
			t.Fatal(rerr)
		}
		if err != nil {
			t.Errorf("--out %s >> FILE: %v\n%s", out, err, errOut.String())
		}
		if !strings.HasPrefix(string(got), earlier) {
			t.Errorf("--out %s >> FILE lost what the file held before:\n%s", out, got)
		}
		if !strings.Contains(string(got), `"bootProof"`) || !strings.Contains(string(got), "Verdict: VERIFIED") {
			t.Errorf("--out %s >> FILE should hold the proof and then the report:\n%s", out, got)
		}
	}
}
