package proof

import (
	"strings"
	"testing"
	"time"
)

// QOS never sets a nonce on a boot or live attestation, and its verifier
// (qos_nsm verify_attestation_doc_against_user_input, tkhq/rust-sdk proofs
// verify) refuses a document with one, even an empty one; vigil used to call
// such a boot proof VERIFIED.
func TestBootProofDocumentWithNonceFails(t *testing.T) {
	e := fzBuild(t, time.Now())
	if rep := VerifyBootProof(e.bp, Options{Roots: []Root{e.auth.Root()}}); rep.Verdict != Verified {
		t.Fatalf("the genuine boot proof did not verify: %s", dump(rep))
	}
	for _, tc := range []struct {
		name, want string
		nonce      []byte
	}{
		{"a nonce", "nonce (18 bytes: 7265706c617965642d6368616c6c656e…)", []byte("replayed-challenge")},
		{"an empty nonce", "nonce (0 bytes)", []byte{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bp := e.bp
			bp.AwsAttestationDocB64 = e.resignRaw(t, func(r *rawAttestation) { r.Nonce = tc.nonce })
			rep := VerifyBootProof(bp, Options{Roots: []Root{e.auth.Root()}})
			c := rep.Check(CheckUserData)
			if rep.Verdict != Failed || c.Status != Fail {
				t.Fatalf("verdict %s, user-data %s %q: QOS refuses a document with a nonce", rep.Verdict, c.Status, c.Reason)
			}
			if !strings.Contains(c.Reason, tc.want) || !strings.Contains(c.Reason, "QOS never sets") {
				t.Errorf("user-data reason %q does not say %q and why", c.Reason, tc.want)
			}
		})
	}
}
