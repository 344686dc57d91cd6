package proof

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"
)

// A bare attestation document without PCR0 cannot be told from one of an
// enclave in debug mode (PCR0 all zeros): pcrs fails, saying PCR0 is absent,
// and never claims the document is not in debug mode.
func TestBareAttestationWithoutPCR0FailsPCRs(t *testing.T) {
	auth, _ := NewDemoAuthority(time.Now())
	enc, err := NewDemoEnclave(auth, "a", "o", "l", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	pcrs := map[uint64][]byte{}
	for i := 1; i < 16; i++ {
		pcrs[uint64(i)] = bytes.Repeat([]byte{1}, 48)
	}
	doc, err := auth.attest(time.Now(), "a", pcrs, make([]byte, 32), mustHex(t, enc.BootProof.EphemeralPublicKeyHex))
	if err != nil {
		t.Fatal(err)
	}
	rep := VerifyAttestation(doc, Options{Roots: []Root{auth.Root()}})
	if got := rep.FailedChecks(); !slices.Equal(got, []string{CheckPCRs}) {
		t.Fatalf("failed %v, want [pcrs]\n%s", got, dump(rep))
	}
	reason := rep.Check(CheckPCRs).Reason
	if !strings.Contains(reason, "PCR0 is missing") || strings.Contains(reason, "not in debug mode") {
		t.Errorf("pcrs reason %q; want it to say PCR0 is missing, not that the document is not in debug mode", reason)
	}
}
