package proof

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// Audit 217 F2: QOS's JSON storage form of v0/v1 manifests, hashed as Borsh.

// Current QOS stores v0/v1 manifests and envelopes as serde JSON without a
// version (qos_core handles.rs put_manifest_envelope -> to_storage_vec;
// qos_client generate-manifest), while their hash stays SHA-256 of the Borsh
// encoding; VersionedManifest{,Envelope}::try_from_slice_compat reads that
// JSON as V1 and tkhq/rust-sdk proofs verify() accepts such a boot proof.
func TestUnversionedJSONManifestIsHashedAsBorsh(t *testing.T) {
	now := time.Now()
	e := fzBuild(t, now)
	pcr := func(i int) []byte { return e.raw.PCRs[uint64(i)] }
	pivot := sha256Sum([]byte("pivot"))
	// Borsh v1: the bytes QOS hashes.
	w := &borshWriter{}
	w.str("vigil-demo/signer")
	w.u32(7)
	w.bytes(e.mpubs[0])
	w.raw(pivot)
	w.u8(1)
	w.u32(0) // bridges
	w.u8(0)  // debug_mode
	w.strings([]string{"--app", "signer"})
	for range 2 {
		w.u32(2)
		w.u32(3)
		for i, k := range e.mpubs {
			w.str(e.aliases[i])
			w.bytes(k)
		}
	}
	for i := range 4 {
		w.bytes(pcr(i))
	}
	w.bytes(nil)
	w.str("c")
	w.u32(0)
	w.u32(0)
	hash := sha256Sum(w.b)
	if m, err := decodeManifest(w.b, false); err != nil || m.Version != "v1" {
		t.Fatalf("borsh v1: %v", err)
	}
	members := ""
	for i, k := range e.mpubs {
		if i > 0 {
			members += ","
		}
		members += `{"alias":"` + e.aliases[i] + `","pubKey":"` + hex.EncodeToString(k) + `"}`
	}
	set := `{"threshold":2,"members":[` + members + `]}`
	manifestJSON := `{"namespace":{"name":"vigil-demo/signer","nonce":7,"quorumKey":"` + hex.EncodeToString(e.mpubs[0]) + `"},` +
		`"pivot":{"hash":"` + hex.EncodeToString(pivot) + `","restart":"Always","bridgeConfig":[],"debugMode":false,"args":["--app","signer"]},` +
		`"manifestSet":` + set + `,"shareSet":` + set + `,` +
		`"enclave":{"pcr0":"` + hex.EncodeToString(pcr(0)) + `","pcr1":"` + hex.EncodeToString(pcr(1)) + `","pcr2":"` + hex.EncodeToString(pcr(2)) + `","pcr3":"` + hex.EncodeToString(pcr(3)) + `","awsRootCertificate":"","qosCommit":"c"},` +
		`"patchSet":{"threshold":0,"members":[]}}`
	approvals := ""
	for i := range 2 {
		sig, _ := signP256(e.members[i], hash)
		if i > 0 {
			approvals += ","
		}
		approvals += `{"signature":"` + hex.EncodeToString(sig) + `","member":{"alias":"` + e.aliases[i] + `","pubKey":"` + hex.EncodeToString(e.mpubs[i]) + `"}}`
	}
	envJSON := `{"manifest":` + manifestJSON + `,"manifestSetApprovals":[` + approvals + `],"shareSetApprovals":[]}`
	pcrs := map[uint64][]byte{}
	for k, v := range e.raw.PCRs {
		pcrs[k] = v
	}
	pcrs[livePCR] = LiveManifestCommitment(hash, e.ephPub)
	doc, _ := e.auth.attest(now, "signer", pcrs, hash, e.ephPub)
	bp := api.BootProof{
		EphemeralPublicKeyHex:  hex.EncodeToString(e.ephPub),
		AwsAttestationDocB64:   base64.StdEncoding.EncodeToString(doc),
		QosManifestB64:         base64.StdEncoding.EncodeToString([]byte(manifestJSON)),
		QosManifestEnvelopeB64: base64.StdEncoding.EncodeToString([]byte(envJSON)),
		EnclaveApp:             "signer",
	}
	rep := VerifyBootProof(bp, Options{Roots: []Root{e.auth.Root()}})
	for _, id := range []string{CheckUserData, CheckManifestDecode, CheckApprovals} {
		t.Logf("%s: %s %s", id, rep.Check(id).Status, rep.Check(id).Reason)
	}
	if rep.Verdict != Verified {
		t.Errorf("a boot proof carrying QOS's own JSON storage form of a v1 manifest is %s", rep.Verdict)
	}
}

// legacyV0Proof is a boot proof whose manifest and envelope are QOS's JSON
// storage form of a v0 manifest (ManifestV0 camelCase; ManifestEnvelopeV0
// has no rename, so its keys are snake_case: tkhq/qos boot.rs:641), whose
// hash is SHA-256 of its Borsh encoding. extra is spliced into the manifest.
func legacyV0Proof(t *testing.T, e *fzEnclave, extra string) api.BootProof {
	t.Helper()
	hx := hex.EncodeToString
	pivot := sha256Sum([]byte("pivot"))
	members := []Member{}
	for i, k := range e.mpubs {
		members = append(members, Member{Alias: e.aliases[i], PubKey: k})
	}
	m := &Manifest{
		Namespace:   Namespace{Name: "vigil-demo/signer", Nonce: 7, QuorumKey: e.mpubs[0]},
		Pivot:       Pivot{Hash: pivot, Restart: "Never", Args: []string{"--a\u2028b"}},
		ManifestSet: QuorumSet{Threshold: 2, Members: members},
		ShareSet:    QuorumSet{Threshold: 2, Members: members},
		Enclave:     NitroConfig{QOSCommit: "c", PCR0: e.raw.PCRs[0], PCR1: e.raw.PCRs[1], PCR2: e.raw.PCRs[2], PCR3: e.raw.PCRs[3]},
		PatchSet:    &QuorumSet{},
	}
	hash := sha256Sum(encodeManifestV0(m))
	ms := ""
	for i, k := range e.mpubs {
		if i > 0 {
			ms += ","
		}
		ms += `{"alias":"` + e.aliases[i] + `","pubKey":"` + hx(k) + `"}`
	}
	set := `{"threshold":"2","members":[` + ms + `]}`
	manifest := `{"namespace":{"name":"vigil-demo/signer","nonce":7,"quorumKey":"` + hx(e.mpubs[0]) + `"},` +
		`"pivot":{"hash":"` + hx(pivot) + `","restart":"Never","args":["--a` + "\u2028" + `b"]},"manifestSet":` + set + `,"shareSet":` + set + `,` +
		`"enclave":{"pcr0":"` + hx(e.raw.PCRs[0]) + `","pcr1":"` + hx(e.raw.PCRs[1]) + `","pcr2":"` + hx(e.raw.PCRs[2]) + `","pcr3":"` + hx(e.raw.PCRs[3]) + `","awsRootCertificate":"","qosCommit":"c"},` +
		`"patchSet":{"threshold":0,"members":[]}` + extra + `}`
	approvals := ""
	for i := range 2 {
		sig, _ := signP256(e.members[i], hash)
		if i > 0 {
			approvals += ","
		}
		approvals += `{"signature":"` + hx(sig) + `","member":{"alias":"` + e.aliases[i] + `","pubKey":"` + hx(e.mpubs[i]) + `"}}`
	}
	env := `{"manifest":` + manifest + `,"manifest_set_approvals":[` + approvals + `],"share_set_approvals":[]}`
	pcrs := map[uint64][]byte{}
	for k, v := range e.raw.PCRs {
		pcrs[k] = v
	}
	pcrs[livePCR] = LiveManifestCommitment(hash, e.ephPub)
	doc, err := e.auth.attest(e.now, "signer", pcrs, hash, e.ephPub)
	if err != nil {
		t.Fatal(err)
	}
	return api.BootProof{
		EphemeralPublicKeyHex:  hx(e.ephPub),
		AwsAttestationDocB64:   base64.StdEncoding.EncodeToString(doc),
		QosManifestB64:         base64.StdEncoding.EncodeToString([]byte(manifest)),
		QosManifestEnvelopeB64: base64.StdEncoding.EncodeToString([]byte(env)),
		EnclaveApp:             "signer",
	}
}

func TestUnversionedJSONV0ManifestIsHashedAsBorsh(t *testing.T) {
	e := fzBuild(t, time.Now())
	rep := VerifyBootProof(legacyV0Proof(t, e, ""), Options{Roots: []Root{e.auth.Root()}})
	if rep.Verdict != Verified || rep.Manifest == nil || rep.Manifest.Version != "v0" || rep.Manifest.Pivot.Args[0] != "--a\u2028b" {
		for _, c := range rep.Checks {
			t.Logf("%s %s %s", c.ID, c.Status, c.Reason)
		}
		t.Fatalf("QOS's JSON storage form of a v0 manifest and envelope: %s", rep.Verdict)
	}
	if r := rep.Check(CheckManifestDecode).Reason; !strings.Contains(r, "JSON storage form") {
		t.Errorf("manifest-decode says %q, not which form was read", r)
	}
}

// TestUnversionedJSONManifestThatDoesNotDecodeBlamesNoAttestedData: a JSON
// manifest without a version is hashed through its decoding, so when it does
// not decode, user-data cannot be computed; saying the enclave booted another
// manifest, or telling the user to edit it, would be false.
func TestUnversionedJSONManifestThatDoesNotDecodeBlamesNoAttestedData(t *testing.T) {
	e := fzBuild(t, time.Now())
	rep := VerifyBootProof(legacyV0Proof(t, e, `,"extra":1`), Options{Roots: []Root{e.auth.Root()}})
	ud, dec := rep.Check(CheckUserData), rep.Check(CheckManifestDecode)
	if rep.Verdict == Verified || ud.Status != Fail || strings.Contains(ud.Reason, "not the one the enclave booted") ||
		!strings.Contains(ud.Reason, "cannot hash") || strings.Contains(dec.Reason, "remove it") || !strings.Contains(dec.Reason, `"extra"`) {
		t.Errorf("verdict %s; user-data %s %q; manifest-decode %q", rep.Verdict, ud.Status, ud.Reason, dec.Reason)
	}
}
