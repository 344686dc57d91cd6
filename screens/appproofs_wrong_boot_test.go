package screens

import (
	"bytes"
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// A get_boot_proof reply holding a genuine boot proof of another enclave (a
// proxy's or cache's mistake) is blamed on the reply, not on the genuine app
// proof, and is not kept for the session: the next refresh fetches it again.
func TestAppProofsBootProofOfAnotherKeyIsBlamedAndFetchedAgain(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	tag := userTag(t, d, "wrong-boot-proof")
	alice := d.Client("alice")
	proofs, err := alice.ListAppProofs(ctx, tag.ID)
	if err != nil || len(proofs) == 0 {
		t.Fatalf("proofs: %v %d", err, len(proofs))
	}
	signerKey := proofs[0].PublicKey
	// a genuine boot proof of another enclave (another key)
	var other []byte
	for _, app := range d.Info.EnclaveApps {
		raw, err := alice.QueryRaw(ctx, api.QueryGetLatestBootProof,
			api.GetLatestBootProofRequest{OrganizationID: d.Info.OrganizationID, AppName: app})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(raw, []byte(signerKey)) {
			other = raw
		}
	}
	if other == nil {
		t.Fatal("no boot proof of another key")
	}
	var wrongOnce atomic.Bool
	wrongOnce.Store(true)
	hostile := d.Rewriting(func(op string, request, reply []byte) []byte {
		if op == "query/"+api.QueryGetBootProof && wrongOnce.Swap(false) {
			return other // one bad reply (a proxy's mistake), then the right one
		}
		return reply
	})
	h := demoHarnessVia(t, d.ClientAt(hostile, "alice"), ProofSettings{Apps: d.Info.EnclaveApps, Roots: demoRoots(t, d)})
	h.key("v")
	if a := h.activities(); len(a.items) == 0 || a.items[0].ID != tag.ID {
		t.Fatalf("the tag activity is not first")
	}
	h.key("enter")
	out := appProofsSection(t, h)
	if !strings.Contains(out, "P256  CANNOT VERIFY") || !strings.Contains(out, "boot proof of another key") ||
		strings.Contains(out, "made by another enclave") {
		t.Fatalf("a boot proof of another key must be blamed on the reply, not on the app proof:\n%s", out)
	}
	h.key("r") // the service answers right now
	out = appProofsSection(t, h)
	if !strings.Contains(out, "P256  VERIFIED") {
		t.Errorf("after a refresh the genuine app proof is still checked against the wrong, cached boot proof:\n%s", out)
	}
}
