package screens

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/proof"
	"github.com/vigil-console/vigil/server/servertest"
)

// PCR pins fix the QuorumOS image, not the app binary or who approved the
// manifest: with them alone the Boot proofs row, the report and an
// activity's app proof read "VERIFIED (PCR pins only)", not a plain
// VERIFIED, and the report says to pin the manifest hash. With the manifest
// hash pinned too, they read VERIFIED.
func TestPCRPinsOnlyReadAsACaveatedVerified(t *testing.T) {
	d := servertest.StartDemo(t)
	act := userTag(t, d, "pcr-pins")
	app := d.Info.EnclaveApps[0]
	bp, err := d.Client("alice").GetLatestBootProof(context.Background(), app)
	if err != nil {
		t.Fatal(err)
	}
	// The enclave's own PCRs and manifest hash, as its document holds them.
	doc := proof.VerifyBootProof(*bp, proof.Options{Roots: demoRoots(t, d)}).Document
	if doc == nil {
		t.Fatal("the demo boot proof's document did not decode")
	}
	pcrs := map[int][]byte{0: doc.PCRs[0], 1: doc.PCRs[1], 2: doc.PCRs[2], 3: doc.PCRs[3]}
	settings := ProofSettings{Apps: d.Info.EnclaveApps, Roots: demoRoots(t, d), ExpectedPCRs: map[string]map[int][]byte{}}
	for _, a := range d.Info.EnclaveApps {
		settings.ExpectedPCRs[a] = pcrs // the demo's enclaves share one image
	}

	h := demoHarnessVia(t, d.Client("alice"), settings)
	h.key("2")
	if r := rowOf(t, h.plain(), app); !strings.Contains(r, "VERIFIED (PCR pins only)") {
		t.Errorf("PCR pins only, list row: %q", r)
	}
	h.key("enter")
	if out := h.plain(); !strings.Contains(out, "VERIFIED (PCR pins only) — every core check passed") ||
		!strings.Contains(out, "PCR pins only: they fix the enclave image") || !strings.Contains(out, "allowed_manifest_hashes") {
		t.Errorf("PCR pins only, report:\n%s", out)
	}
	h = demoHarnessVia(t, d.Client("alice"), settings)
	h.key("v")
	if a := h.activities(); len(a.items) == 0 || a.items[0].ID != act.ID {
		t.Fatalf("the tag activity is not first")
	}
	h.key("enter")
	if out := appProofsSection(t, h); !strings.Contains(out, "P256  VERIFIED (PCR pins only)") ||
		!strings.Contains(out, "boot proof:     VERIFIED (PCR pins only) — PCR pins only") {
		t.Errorf("PCR pins only, app proof:\n%s", out)
	}

	settings.AllowedManifestHashes = [][]byte{doc.UserData}
	h = demoHarnessVia(t, d.Client("alice"), settings)
	h.key("2")
	if r := rowOf(t, h.plain(), app); !strings.Contains(r, "VERIFIED") || strings.Contains(r, "VERIFIED (") {
		t.Errorf("manifest hash pinned, list row: %q", r)
	}
}
