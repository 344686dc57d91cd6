package proof

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// legacyJSONV1Of writes the v1 reading of Borsh manifest bytes b in QOS's
// JSON storage form (no version), field by field from the bytes themselves,
// so that its Borsh encoding is b again.
func legacyJSONV1Of(t *testing.T, b []byte) string {
	t.Helper()
	m, err := decodeManifestBorsh(b, true)
	if err != nil {
		t.Fatalf("not a v1 manifest: %v", err)
	}
	// The bridges as the bytes hold them (Manifest keeps only their text).
	r := &borshReader{b: b}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	_, err = r.str("name")
	must(err)
	_, err = r.u32("nonce")
	must(err)
	_, err = r.bytes("quorum_key")
	must(err)
	_, err = r.fixed("hash", 32)
	must(err)
	_, err = r.u8("restart")
	must(err)
	n, err := r.count("bridges", 3)
	must(err)
	var bridges []map[string]any
	for range n {
		tag, err := r.u8("tag")
		must(err)
		port, err := r.u16("port")
		must(err)
		if tag != 0 {
			t.Fatalf("the helper writes server bridges only, got tag %d", tag)
		}
		host, err := r.str("host")
		must(err)
		bridges = append(bridges, map[string]any{"type": "server", "port": port, "host": host})
	}
	hx := hex.EncodeToString
	set := func(s QuorumSet) map[string]any {
		members := []map[string]any{}
		for _, mem := range s.Members {
			members = append(members, map[string]any{"alias": mem.Alias, "pubKey": hx(mem.PubKey)})
		}
		return map[string]any{"threshold": s.Threshold, "members": members}
	}
	patch := []map[string]any{}
	for _, mem := range m.PatchSet.Members {
		patch = append(patch, map[string]any{"pubKey": hx(mem.PubKey)})
	}
	args := append([]string{}, m.Pivot.Args...)
	out, err := json.Marshal(map[string]any{
		"namespace": map[string]any{"name": m.Namespace.Name, "nonce": m.Namespace.Nonce, "quorumKey": hx(m.Namespace.QuorumKey)},
		"pivot": map[string]any{"hash": hx(m.Pivot.Hash), "restart": m.Pivot.Restart, "bridgeConfig": bridges,
			"debugMode": m.Pivot.DebugMode, "args": args},
		"manifestSet": set(m.ManifestSet),
		"shareSet":    set(m.ShareSet),
		"enclave": map[string]any{"pcr0": hx(m.Enclave.PCR0), "pcr1": hx(m.Enclave.PCR1), "pcr2": hx(m.Enclave.PCR2),
			"pcr3": hx(m.Enclave.PCR3), "awsRootCertificate": "", "qosCommit": m.Enclave.QOSCommit},
		"patchSet": map[string]any{"threshold": m.PatchSet.Threshold, "members": patch},
	})
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// Bytes that read whole both as a v1 and as a v0 Borsh manifest are refused
// (TestAmbiguousBorshManifestIsRefused): the two readings share one hash, so
// neither the attestation nor the approvals say which one the enclave booted.
// QOS's JSON storage form of one of the readings is hashed as those very
// bytes, so it must be refused too: shipped as JSON v1, the operators'
// reading (approved, pinned) was VERIFIED, while the same hash also names a
// v0 manifest with the attacker in its manifest set.
func TestLegacyJSONOfAmbiguousBorshIsRefused(t *testing.T) {
	now := time.Now()
	e := fzBuild(t, now)
	_, attackerKey, _, _ := newQOSKey()
	b := v1v0Polyglot(t, e, attackerKey)
	manifestJSON := legacyJSONV1Of(t, b)
	m, borsh, err := decodeManifestLegacyJSON([]byte(manifestJSON))
	if err == nil && string(borsh) != string(b) {
		t.Fatalf("the JSON's Borsh encoding is not the polyglot (%d and %d bytes)", len(borsh), len(b))
	}
	if err == nil {
		t.Logf("decoded as %s with manifest set %d of %d", m.Version, m.ManifestSet.Threshold, len(m.ManifestSet.Members))
	}
	hash := sha256Sum(b)
	hx := hex.EncodeToString
	approvals := ""
	for i := range 2 {
		sig, err := signP256(e.members[i], hash)
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			approvals += ","
		}
		approvals += `{"signature":"` + hx(sig) + `","member":{"alias":"` + e.aliases[i] + `","pubKey":"` + hx(e.mpubs[i]) + `"}}`
	}
	envJSON := `{"manifest":` + manifestJSON + `,"manifestSetApprovals":[` + approvals + `],"shareSetApprovals":[]}`
	pcrs := map[uint64][]byte{}
	for k, v := range e.raw.PCRs {
		pcrs[k] = v
	}
	pcrs[livePCR] = LiveManifestCommitment(hash, e.ephPub)
	doc, err := e.auth.attest(now, "signer", pcrs, hash, e.ephPub)
	if err != nil {
		t.Fatal(err)
	}
	bp := api.BootProof{
		EphemeralPublicKeyHex:  hx(e.ephPub),
		AwsAttestationDocB64:   base64.StdEncoding.EncodeToString(doc),
		QosManifestB64:         base64.StdEncoding.EncodeToString([]byte(manifestJSON)),
		QosManifestEnvelopeB64: base64.StdEncoding.EncodeToString([]byte(envJSON)),
		EnclaveApp:             "signer",
	}
	pin := &QuorumSet{Threshold: 2}
	for _, k := range e.mpubs {
		pin.Members = append(pin.Members, Member{PubKey: k})
	}
	rep := VerifyBootProof(bp, Options{Roots: []Root{e.auth.Root()}, App: "signer",
		ExpectedPivotHashes: [][]byte{sha256Sum([]byte("pivot"))}, ExpectedManifestSet: pin})
	if rep.Verdict != Failed {
		t.Errorf("verdict %s for a JSON manifest whose Borsh encoding is both a v1 and a v0 manifest, want FAILED", rep.Verdict)
	}
	for _, id := range []string{CheckManifestDecode, CheckApprovals} {
		if c := rep.Check(id); c.Status != Fail || !strings.Contains(c.Reason, "ambiguous Borsh encoding") {
			t.Errorf("%s is %s %q, want a failure naming the ambiguous Borsh encoding", id, c.Status, c.Reason)
		}
	}
	if rep.Manifest != nil {
		t.Errorf("a manifest is shown (%s, manifest set %d of %d) for a hash that names two manifests", rep.Manifest.Version, rep.Manifest.ManifestSet.Threshold, len(rep.Manifest.ManifestSet.Members))
	}
}
