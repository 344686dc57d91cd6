package cli

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/proof"
)

// fixturePCRPins are --expect-pcr flags for PCR0–3 of the production
// fixture's document, as its own bytes hold them.
func fixturePCRPins(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(proofFixtures + "turnkey_boot_proof_1.json")
	if err != nil {
		t.Fatal(err)
	}
	bp, err := parseBootProof(b)
	if err != nil {
		t.Fatal(err)
	}
	doc := proof.VerifyBootProof(*bp, proof.Options{}).Document
	if doc == nil {
		t.Fatal("the fixture's document did not decode")
	}
	var flags []string
	for i := range 4 {
		flags = append(flags, "--expect-pcr", fmt.Sprintf("%d=%s", i, doc.PCRs[i]))
	}
	return flags
}

// PCR pins alone fix the QuorumOS image, not the app binary or the operators
// who approved the manifest: the report keeps a caveat saying so,
// --require-verified still accepts it (as it does no pins), and
// --require-pinned refuses it until the manifest hash is pinned.
func TestProofVerifyPCRPinsOnlyKeepACaveat(t *testing.T) {
	verify := func(extra ...string) (int, string, string) {
		args := append([]string{"verify", "--boot-proof", proofFixtures + "turnkey_boot_proof_1.json"}, fixturePCRPins(t)...)
		return runProof(t, "", append(args, extra...)...)
	}
	code, out, errOut := verify("--require-verified")
	if code != 0 || !strings.Contains(out, "Verdict: VERIFIED\n         PCR pins only: they fix the enclave image, not the app binary") || !strings.Contains(out, "✓ pins") {
		t.Errorf("PCR pins only, --require-verified: exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut = verify("--require-pinned")
	if code != 1 || !strings.Contains(errOut, "VERIFIED with a caveat (--require-pinned): PCR pins only") {
		t.Errorf("PCR pins only, --require-pinned: exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut = verify("--require-pinned", "--allow-manifest", "24a9e2c0b0ce26bcbc3e65172f8b06b100d5e712591f604832cbea9ff5ce02be")
	if code != 0 || strings.Contains(out, "PCR pins only") || strings.Contains(out, "no pins set") {
		t.Errorf("manifest hash pinned, --require-pinned: exit %d\n%s\n%s", code, out, errOut)
	}
}

// The production app proof names no activity, so against --activity the
// verdict is PARTIAL although every core check passed: --require-verified
// says that the app proof is not tied to the activity, not that a core check
// could not run. A bare document, whose core checks could not run, names them.
func TestRequireVerifiedSaysWhyPartial(t *testing.T) {
	code, out, errOut := runProof(t, "", "verify", "--boot-proof", proofFixtures+"turnkey_boot_proof_1.json",
		"--app-proofs", proofFixtures+"turnkey_app_proof_1.json", "--activity", "0192a6c4-0000-7000-8000-000000000000", "--require-verified")
	if code != 1 || !strings.Contains(out, "Verdict: PARTIAL") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if strings.Contains(errOut, "could not run") || !strings.Contains(errOut, "app-proof[0] names no activity, so nothing ties it to the activity asked about") {
		t.Errorf("unbound app proof: %s", errOut)
	}
	code, out, errOut = runProof(t, "", "verify", "--attestation", proofFixtures+"nitro_attestation_blocky.cbor", "--require-verified")
	if code != 1 || !strings.Contains(errOut, "core check(s) user-data, public-key, manifest-decode, pcrs, approvals could not run") {
		t.Errorf("bare document: exit %d\n%s\n%s", code, out, errOut)
	}
}

// A private key pasted as --expect-manifest-set's file is described, never
// quoted: a pin's value is not hidden from messages (publicHexFlags), so the
// message must not quote the value while saying it is not shown.
func TestManifestSetFileThatLooksLikeAKeyIsNotQuoted(t *testing.T) {
	boot := t.TempDir() + "/boot.json"
	if err := os.WriteFile(boot, []byte(`{}`), 0o600); err != nil {
		t.Fatal(err)
	}
	const pasted = "38082761d7fa45146e448f3497f1ef5653cca23a562c278cb29db1414cb7edb1"
	code, out, errOut := runVigil(t, nil, "", "proof", "verify", "--boot-proof", boot, "--expect-manifest-set", pasted)
	wantExit(t, "proof verify", code, exitUsage, out, errOut)
	if strings.Contains(strings.ToLower(errOut+out), pasted[:16]) || !strings.Contains(errOut, "look like a private key") {
		t.Errorf("the key should be described, not quoted:\n%s", errOut)
	}
}
