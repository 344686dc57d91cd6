package proof

import (
	"encoding/base64"
	"testing"
)

// undecodableManifest is the production boot proof with its shipped
// manifest replaced by bytes that are no manifest: the attested envelope's
// manifest is shown in its place.
func undecodableManifest(t *testing.T) *Report {
	t.Helper()
	bp, _ := fixturePair(t)
	bp.QosManifestB64 = base64.StdEncoding.EncodeToString([]byte("not a manifest"))
	rep := VerifyBootProof(bp, Options{})
	if c := rep.Check(CheckManifestDecode); c.Status != Fail {
		t.Fatalf("set-up: manifest-decode %s, want FAIL", c.Status)
	}
	if c := rep.Check(CheckApprovals); c.Status != Pass {
		t.Fatalf("set-up: approvals %s (%s), want PASS against the envelope", c.Status, c.Reason)
	}
	if rep.Manifest == nil {
		t.Fatal("set-up: the attested envelope's manifest is not shown")
	}
	return rep
}

// When the envelope's manifest is shown, the approvals checked go with it:
// "approvals PASS" beside "(none)" would contradict itself.
func TestEnvelopeManifestShownCarriesTheApprovalsChecked(t *testing.T) {
	rep := undecodableManifest(t)
	m := rep.Manifest
	if len(m.Approvals) < int(m.ManifestSet.Threshold) || m.ManifestSet.Threshold == 0 {
		t.Fatalf("the manifest shown carries %d approvals, threshold %d; the approvals check passed", len(m.Approvals), m.ManifestSet.Threshold)
	}
	for i, a := range m.Approvals {
		if !a.Valid || !a.Member {
			t.Errorf("approval %d (%q) shown as not valid (%s) though the check passed", i+1, a.Alias, a.Reason)
		}
	}
	if m.ShareSetApprovalsNote != ShareSetApprovalsNote {
		t.Errorf("share-set approval count shown without its note: %q", m.ShareSetApprovalsNote)
	}
}
