package proof

import (
	"encoding/binary"
	"testing"
)

// The merge's own invariant (TestOverLimitV1IsNotReadAsV0): for manifest
// bytes QOS reads as a v1 manifest over vigil's limits, no manifest is shown.
// The service chooses the envelope independently of the manifest, and
// VerifyBootProof (verify.go:107-111) shows the envelope's manifest whenever
// manifest-decode fails: an envelope carrying the v0 reading's sets and PCRs
// (any other bytes) puts them in the report's manifest section again.
func TestRefusedManifestIsNotShownFromAnUnattestedEnvelope(t *testing.T) {
	b := pivotPolyglot(t)
	v0, err := decodeManifestBorsh(b, false)
	if err != nil {
		t.Fatal(err)
	}
	// The v0 reading, re-encoded without the args that made it a polyglot:
	// same "operator" sets, same PCRs, different bytes.
	v0.Pivot.Args = nil
	envelope := binary.LittleEndian.AppendUint64(encodeManifestV0(v0), 0)
	rep := VerifyBootProof(hostileBootProof(b, envelope), Options{})
	if c := rep.Check(CheckManifestDecode); c.Status != Fail {
		t.Fatalf("manifest-decode %s", c.Status)
	}
	if rep.Manifest != nil {
		t.Errorf("a manifest is shown (%s, manifest set %q, PCR0 %x) although the manifest QOS boots (v1, over the limit) was refused", rep.Manifest.Version, rep.Manifest.ManifestSet.Members[0].Alias, []byte(rep.Manifest.Enclave.PCR0[:4]))
	}
}
