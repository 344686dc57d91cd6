package proof

import (
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// A genuine setup (boot-time) attestation of current QOS (tkhq/qos
// qos_core boot.rs put_manifest_and_pivot; attestation.rs:39
// lock_manifest_commitment_pcr_bank): public_key is the SETUP key, PCR16
// commits to (manifest, setup key), PCR17 to (manifest, LIVE key). qos_nsm
// verify_attestation_doc_against_manifest_setup accepts it; rust-sdk's
// app-proof verify checks only the live commitment, so an app proof signed
// by the setup key must not pass against it.
func TestSetupAttestationMatchesPCR16(t *testing.T) {
	now := time.Now()
	e := fzBuild(t, now)
	setupSign, setupPub, _, _ := newQOSKey()
	_, livePub, _, _ := newQOSKey()
	hash := e.raw.UserData
	// The setup commitment, written out here rather than with the code under test.
	setup := func(mh, key []byte) []byte {
		pre := `{"domain":"qos-setup-manifest-pcr-commitment-v1","ephemeralPublicKey":"` + hex.EncodeToString(key) + `","manifestHash":"` + hex.EncodeToString(mh) + `"}`
		c := sha512.Sum384([]byte(pre))
		ext := sha512.Sum384(append(make([]byte, 48), c[:]...))
		return ext[:]
	}
	pcrs := map[uint64][]byte{}
	for k, v := range e.raw.PCRs {
		pcrs[k] = v
	}
	pcrs[16] = setup(hash, setupPub)
	pcrs[17] = LiveManifestCommitment(hash, livePub)
	doc, err := e.auth.attest(now, "signer", pcrs, hash, setupPub)
	if err != nil {
		t.Fatal(err)
	}
	rep := VerifyAttestation(doc, Options{Roots: []Root{e.auth.Root()}})
	c := rep.Check(CheckPCR17)
	if rep.Verdict == Failed || c.Status != Pass || !strings.Contains(c.Reason, "setup attestation: PCR16") {
		t.Errorf("a genuine setup attestation of current QOS: verdict %s, %s %s; want a pass naming the PCR16 setup commitment", rep.Verdict, c.Status, c.Reason)
	}

	bp := e.bp
	bp.AwsAttestationDocB64 = base64.StdEncoding.EncodeToString(doc)
	bp.EphemeralPublicKeyHex = hex.EncodeToString(setupPub)
	payload := "payload signed by the setup key"
	sig, err := signP256(setupSign, []byte(payload))
	if err != nil {
		t.Fatal(err)
	}
	ap := api.AppProof{Scheme: AppProofScheme, PublicKey: hex.EncodeToString(setupPub), ProofPayload: payload, Signature: hex.EncodeToString(sig)}
	if err := checkAppProof(ap, setupPub); err != nil {
		t.Fatalf("control: the app proof is not validly signed by the setup key: %v", err)
	}
	rep = VerifyBootProof(bp, Options{Roots: []Root{e.auth.Root()}})
	if rep.Verdict != Verified {
		t.Errorf("the boot proof with a setup attestation and no app proofs: %s", rep.Verdict)
	}
	rep = VerifyBootProof(bp, Options{Roots: []Root{e.auth.Root()}, AppProofs: []api.AppProof{ap}})
	if got := rep.Check("app-proof[0]"); got.Status != Fail || !strings.Contains(got.Reason, "setup attestation") || rep.Verdict == Verified {
		t.Errorf("an app proof checked against a setup attestation: %s %q, verdict %s; it must fail, saying the key is the setup key", got.Status, got.Reason, rep.Verdict)
	}
	// The live document of the same boot still passes on PCR17.
	live, err := e.auth.attest(now, "signer", pcrs, hash, livePub)
	if err != nil {
		t.Fatal(err)
	}
	if c := VerifyAttestation(live, Options{Roots: []Root{e.auth.Root()}}).Check(CheckPCR17); c.Status != Pass || !strings.Contains(c.Reason, "live attestation") {
		t.Errorf("the live document: %s %s", c.Status, c.Reason)
	}
}
