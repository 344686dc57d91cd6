package screens

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/proof"
)

// A genuine app proof binds the activity's id, type, fingerprint and result,
// not the intent the detail shows above it (the fingerprint hashes a request
// body the service does not return). Beside a VERIFIED proof the detail says
// so, before the proof's checks, so the verdict is not read as covering the
// intent.
func TestActivityAppProofSaysTheIntentIsNotCovered(t *testing.T) {
	auth, err := proof.NewDemoAuthority(testNow)
	if err != nil {
		t.Fatal(err)
	}
	enclave, err := proof.NewDemoEnclave(auth, "signer", "o", "l", testNow)
	if err != nil {
		t.Fatal(err)
	}
	h, _, _, _ := detailWithVerifiedAppProof(t, auth, enclave)
	out := appProofsSection(t, h)
	intent := strings.Index(out, "intent:")
	if intent < 0 || !strings.Contains(out[intent:], "not covered: this proof binds") || !strings.Contains(out, "the intent shown is the service's") {
		t.Fatalf("the detail does not say the intent is not covered by the proof:\n%s", out)
	}
	if checks := strings.Index(out, "app proof:"); checks >= 0 && checks < intent {
		t.Errorf("the intent note is not beside the verdict (it comes after the checks):\n%s", out)
	}
}
