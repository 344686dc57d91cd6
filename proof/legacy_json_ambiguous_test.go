package proof

import (
	"encoding/hex"
	"encoding/json"
	"testing"
	"time"
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
	rep := verifyPinnedBootProof(t, e, now, hash, []byte(manifestJSON), []byte(envJSON))
	wantRefusedAsAmbiguous(t, rep, "a JSON manifest whose Borsh encoding is both a v1 and a v0 manifest")
}
