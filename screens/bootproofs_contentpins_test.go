package screens

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/proof"
	"github.com/vigil-console/vigil/server/servertest"
)

// The pivot hash and the manifest set pinned (no manifest hash) read as a
// plain VERIFIED on the Boot proofs screen, as proof verify says; the pivot
// alone reads "VERIFIED (partial pins)" with a hint naming the pins to add,
// and a pinned set the enclave's manifest does not match FAILS.
func TestContentPinsOnBootProofsScreen(t *testing.T) {
	d := servertest.StartDemo(t)
	app := d.Info.EnclaveApps[0]
	bp, err := d.Client("alice").GetLatestBootProof(context.Background(), app)
	if err != nil {
		t.Fatal(err)
	}
	m := proof.VerifyBootProof(*bp, proof.Options{Roots: demoRoots(t, d)}).Manifest
	if m == nil {
		t.Fatal("the demo boot proof's manifest did not decode")
	}
	settings := ProofSettings{Apps: d.Info.EnclaveApps, Roots: demoRoots(t, d),
		ExpectedPivotHashes: map[string][][]byte{app: {m.Pivot.Hash}}}

	h := demoHarnessVia(t, d.Client("alice"), settings)
	h.key("2")
	if r := rowOf(t, h.plain(), app); !strings.Contains(r, "VERIFIED (partial pins)") {
		t.Errorf("pivot only, list row: %q", r)
	}
	h.key("enter")
	if out := h.plain(); !strings.Contains(out, "VERIFIED (partial pins) — every core check passed") ||
		!strings.Contains(out, "partial pins: the app binary") || !strings.Contains(out, "expected_manifest_sets."+app) {
		t.Errorf("pivot only, report:\n%s", out)
	}

	set := m.ManifestSet
	settings.ExpectedManifestSets = map[string]*proof.QuorumSet{app: &set}
	h = demoHarnessVia(t, d.Client("alice"), settings)
	h.key("2")
	if r := rowOf(t, h.plain(), app); !strings.Contains(r, "VERIFIED") || strings.Contains(r, "VERIFIED (") {
		t.Errorf("pivot and set pinned, list row: %q", r)
	}

	// The set of another quorum: one member of the genuine set, at its
	// threshold, and the manifest's other members are outsiders.
	other := proof.QuorumSet{Threshold: set.Threshold, Members: set.Members[:1]}
	settings.ExpectedManifestSets = map[string]*proof.QuorumSet{app: &other}
	h = demoHarnessVia(t, d.Client("alice"), settings)
	h.key("2")
	if r := rowOf(t, h.plain(), app); !strings.Contains(r, "FAILED") {
		t.Errorf("another set pinned, list row: %q", r)
	}
	h.key("enter")
	if out := h.plain(); !strings.Contains(out, "is not in the pinned set") {
		t.Errorf("another set pinned, report:\n%s", out)
	}
}
