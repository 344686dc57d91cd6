package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A FAILED reply does not replace a file saved earlier (the last good proof,
// most likely) unless --force; to a new file it is saved, as evidence.
func TestProofFetchFailedKeepsSavedFile(t *testing.T) {
	cfg := proofService(t)("")
	dir := t.TempDir()
	saved := filepath.Join(dir, "last-good.json")
	good := []byte(`{"the last good proof": true}`)
	if err := os.WriteFile(saved, good, 0o600); err != nil {
		t.Fatal(err)
	}
	failing := []string{"fetch", "--app", "signer", "--config", cfg, "--expect-pivot", strings.Repeat("0", 64)}

	code, out, errOut := runProof(t, "", append(failing, "--out", saved)...)
	if got, _ := os.ReadFile(saved); code != 1 || string(got) != string(good) {
		t.Fatalf("FAILED reply over an existing file: exit %d, file now %.60q\n%s\n%s", code, got, out, errOut)
	}
	if !strings.Contains(out, "Verdict: FAILED") || !strings.Contains(errOut, saved+" not replaced") || !strings.Contains(errOut, "--force") {
		t.Errorf("the refusal does not say what happened and what to do:\n%s\n%s", out, errOut)
	}

	fresh := filepath.Join(dir, "evidence.json")
	if code, _, errOut := runProof(t, "", append(failing, "--out", fresh)...); code != 1 {
		t.Errorf("FAILED reply to a new file: exit %d\n%s", code, errOut)
	}
	if code, out, _ := runProof(t, "", "verify", "--boot-proof", fresh); code != 0 || !strings.Contains(out, "Verdict: VERIFIED") {
		t.Errorf("the new file does not hold the reply: exit %d\n%s", code, out)
	}

	code, _, errOut = runProof(t, "", append(failing, "--out", saved, "--force")...)
	if code != 1 || strings.Contains(errOut, "not replaced") {
		t.Errorf("--force: exit %d\n%s", code, errOut)
	}
	if code, out, _ := runProof(t, "", "verify", "--boot-proof", saved); code != 0 {
		t.Errorf("--force did not replace the file with the reply: exit %d\n%s", code, out)
	}
	if code, _, errOut := runProof(t, "", "fetch", "--app", "signer", "--config", cfg, "--force"); code != 2 || !strings.Contains(errOut, "--out FILE") {
		t.Errorf("--force without --out: exit %d\n%s", code, errOut)
	}
}
