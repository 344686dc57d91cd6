package proof

import (
	"encoding/base64"
	"encoding/hex"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// rogueEnclave boots the same enclave image (the same PCR0–3, so the same
// PCR pins) under the same root as the genuine one, but with a manifest the
// rogue wrote: another pivot binary and a manifest set of one, its own key.
func rogueEnclave(t *testing.T, auth *DemoAuthority, genuine *DemoEnclave, now time.Time) api.BootProof {
	t.Helper()
	return rogueEnclaveRunning(t, auth, genuine, now, sha256Sum([]byte("mallory's key-exfiltrating pivot")))
}

// rogueEnclaveRunning is rogueEnclave with the pivot hash given: the
// genuine app's binary under a manifest set of the rogue's own.
func rogueEnclaveRunning(t *testing.T, auth *DemoAuthority, genuine *DemoEnclave, now time.Time, pivot []byte) api.BootProof {
	t.Helper()
	doc, _ := base64.StdEncoding.DecodeString(genuine.BootProof.AwsAttestationDocB64)
	a, err := parseAttestation(doc)
	if err != nil {
		t.Fatal(err)
	}
	pcrs := map[uint64][]byte{}
	for i, v := range a.raw.PCRs {
		pcrs[i] = v
	}
	sign, pub, _, err := newQOSKey()
	if err != nil {
		t.Fatal(err)
	}
	_, quorumPub, _, err := newQOSKey()
	if err != nil {
		t.Fatal(err)
	}
	m := &Manifest{
		Namespace: Namespace{Name: "vigil-demo/signer", Nonce: 1, QuorumKey: quorumPub},
		Pivot:     Pivot{Hash: pivot, Restart: "Always", Args: []string{}},
		Enclave:   NitroConfig{PCR0: pcrs[0], PCR1: pcrs[1], PCR2: pcrs[2], PCR3: pcrs[3], QOSCommit: "vigil-demo"},
	}
	m.ManifestSet = QuorumSet{Threshold: 1, Members: []Member{{Alias: "mallory", PubKey: pub}}}
	m.ShareSet = m.ManifestSet
	m.PatchSet = &QuorumSet{Threshold: 1, Members: []Member{{PubKey: pub}}}
	manifest := encodeManifestV0(m)
	hash := sha256Sum(manifest)
	sig, err := signP256(sign, hash)
	if err != nil {
		t.Fatal(err)
	}
	env := encodeEnvelope(manifest, []rawApproval{{signature: sig, member: m.ManifestSet.Members[0]}})
	_, ephPub, _, err := newQOSKey()
	if err != nil {
		t.Fatal(err)
	}
	pcrs[livePCR] = LiveManifestCommitment(hash, ephPub)
	rdoc, err := auth.attest(now, "signer", pcrs, hash, ephPub)
	if err != nil {
		t.Fatal(err)
	}
	bp := genuine.BootProof
	bp.AwsAttestationDocB64 = base64.StdEncoding.EncodeToString(rdoc)
	bp.QosManifestB64 = base64.StdEncoding.EncodeToString(manifest)
	bp.QosManifestEnvelopeB64 = base64.StdEncoding.EncodeToString(env)
	bp.EphemeralPublicKeyHex = hex.EncodeToString(ephPub)
	return bp
}

// PCR pins measure the QOS enclave image, not the app binary (pivot hash) or
// who approved the manifest (checked against the manifest's own set). A
// manifest written and approved by anyone who can boot the same image
// matches them, so PCR pins alone keep a caveat; a manifest-hash pin is what
// tells the rogue manifest from the genuine one, and drops it.
func TestPCRPinsAloneKeepACaveat(t *testing.T) {
	now := time.Now()
	auth, genuine := demoSigner(t, now)
	doc, _ := base64.StdEncoding.DecodeString(genuine.BootProof.AwsAttestationDocB64)
	a, err := parseAttestation(doc)
	if err != nil {
		t.Fatal(err)
	}
	pins := map[int][]byte{0: a.raw.PCRs[0], 1: a.raw.PCRs[1], 2: a.raw.PCRs[2], 3: a.raw.PCRs[3]}
	rogue := rogueEnclave(t, auth, genuine, now)

	pcrOnly := Options{Roots: []Root{auth.Root()}, ExpectedPCRs: pins, App: "signer"}
	for name, bp := range map[string]api.BootProof{"genuine": genuine.BootProof, "rogue": rogue} {
		rep := VerifyBootProof(bp, pcrOnly)
		if rep.Verdict != Verified || rep.Caveat != PCRPinsOnlyCaveat || rep.PinCaveat() != PCRPinsOnlyCaveat {
			t.Errorf("%s, PCR pins only: verdict %s, caveat %q:\n%s", name, rep.Verdict, rep.Caveat, dump(rep))
		}
	}

	pinned := pcrOnly
	pinned.AllowedManifestHashes = [][]byte{a.raw.UserData}
	if rep := VerifyBootProof(genuine.BootProof, pinned); rep.Verdict != Verified || rep.Caveat != "" {
		t.Errorf("genuine, manifest hash pinned: verdict %s, caveat %q", rep.Verdict, rep.Caveat)
	}
	if rep := VerifyBootProof(rogue, pinned); rep.Verdict != Failed || rep.Check(CheckPins).Status != Fail {
		t.Errorf("rogue, manifest hash pinned: verdict %s:\n%s", rep.Verdict, dump(rep))
	}
}
