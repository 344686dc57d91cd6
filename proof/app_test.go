package proof

import (
	"encoding/base64"
	"encoding/hex"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// A boot proof asked for one app but made by another enclave FAILS, whether
// the attested namespace or the service's label says so; the production
// signer's proof still verifies as "signer".
func TestBootProofIsForTheAppAskedFor(t *testing.T) {
	bp, _ := fixturePair(t)
	rep := VerifyBootProof(bp, Options{App: "signer"})
	if rep.Verdict != Verified || !strings.Contains(rep.Check(CheckApp).Reason, `the attested manifest namespace "preprod/signer" names app "signer"`) {
		t.Fatalf("production signer as signer: %s", dump(rep))
	}
	rep = VerifyBootProof(bp, Options{App: "policy-engine"})
	if got := rep.FailedChecks(); !slices.Equal(got, []string{CheckApp}) ||
		rep.Check(CheckApp).Reason != `this proof is for app "signer", not "policy-engine": the attested manifest namespace is "preprod/signer"` {
		t.Fatalf("production signer as policy-engine: %s", dump(rep))
	}
	// The label is not signed: changing it fails only this check.
	relabelled := bp
	relabelled.EnclaveApp = "policy-engine"
	rep = VerifyBootProof(relabelled, Options{App: "signer"})
	if got := rep.FailedChecks(); !slices.Equal(got, []string{CheckApp}) ||
		!strings.Contains(rep.Check(CheckApp).Reason, `this proof is for app "policy-engine", not "signer", says the service's label enclaveApp (not attested)`) {
		t.Fatalf("label policy-engine asked as signer: %s", dump(rep))
	}

}

// With no pins a verification passes for any enclave under the root; the
// report says so. A pin removes the caveat; a failed report has none.
func TestNoPinsCaveat(t *testing.T) {
	bp, _ := fixturePair(t)
	if rep := VerifyBootProof(bp, Options{}); rep.Caveat != NoPinsCaveat {
		t.Errorf("no pins: caveat %q", rep.Caveat)
	}
	hash, _ := hex.DecodeString(fixtureManifestHash)
	if rep := VerifyBootProof(bp, Options{AllowedManifestHashes: [][]byte{hash}}); rep.Verdict != Verified || rep.Caveat != "" {
		t.Errorf("pinned: %s caveat %q", rep.Verdict, rep.Caveat)
	}
	if rep := VerifyBootProof(bp, Options{App: "other"}); rep.Verdict != Failed || rep.Caveat != "" {
		t.Errorf("failed: %s caveat %q", rep.Verdict, rep.Caveat)
	}
}

// An app proof with a boot proof whose document does not decode fails: no
// ephemeral key is attested, and the key the boot proof advertises is only
// the service's word, so a proof signed by it (the attacker's own key here)
// is not "signed by the attested ephemeral key".
func TestAppProofFailsWhenNoKeyIsAttested(t *testing.T) {
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	auth, err := NewDemoAuthority(now)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := NewDemoEnclave(auth, "signer", "o", "l", now)
	if err != nil {
		t.Fatal(err)
	}
	attacker, err := NewDemoEnclave(auth, "signer", "o", "l", now)
	if err != nil {
		t.Fatal(err)
	}
	bp := enc.BootProof
	bp.EphemeralPublicKeyHex = attacker.BootProof.EphemeralPublicKeyHex
	bp.AwsAttestationDocB64 = base64.StdEncoding.EncodeToString([]byte("not a document"))
	ap, err := attacker.SignAppProof([]byte(`{"activityId":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	rep := VerifyBootProof(bp, Options{Roots: []Root{auth.Root()}, AppProofs: []api.AppProof{ap}})
	c := rep.Check("app-proof[0]")
	if c.Status != Fail || !strings.Contains(c.Reason, "no ephemeral key is attested") {
		t.Errorf("app-proof[0] %s %q: want a failure saying no key is attested", c.Status, c.Reason)
	}
	if rep.Verdict != Failed {
		t.Errorf("verdict %s, want FAILED", rep.Verdict)
	}
}
