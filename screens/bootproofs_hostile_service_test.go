package screens

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// signerReplyRewritten is the real service's get_latest_boot_proof reply for
// signer, its bootProof object changed by edit.
func signerReplyRewritten(t *testing.T, d *servertest.Demo, edit func(bp map[string]any)) []byte {
	t.Helper()
	genuine, err := d.Client("alice").QueryRaw(context.Background(), api.QueryGetLatestBootProof,
		api.GetLatestBootProofRequest{OrganizationID: d.Info.OrganizationID, AppName: "signer"})
	if err != nil {
		t.Fatal(err)
	}
	var r map[string]map[string]any
	if err := json.Unmarshal(genuine, &r); err != nil || r["bootProof"] == nil {
		t.Fatalf("reply %s: %v", genuine, err)
	}
	edit(r["bootProof"])
	out, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// bootProofsServedBy is the console at 80x24 on the Boot proofs screen, its
// signer proof served by a proxy that answers reply instead of the service.
func bootProofsServedBy(t *testing.T, d *servertest.Demo, reply []byte) *harness {
	t.Helper()
	hostile := d.Rewriting(func(op string, request, real []byte) []byte {
		if op == "query/"+api.QueryGetLatestBootProof && bytes.Contains(request, []byte(`"appName":"signer"`)) {
			return reply
		}
		return real
	})
	h := demoHarnessVia(t, d.ClientAt(hostile, "alice"), ProofSettings{Apps: []string{"signer"}, Roots: demoRoots(t, d)})
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	h.key("@Boot proofs")
	return h
}

// The service's labels (enclave app, owner, deployment) are not attested and
// the service alone sets them: one as large as a reply may be (16 MiB) is
// shown clipped, so the report stays a few screens long. Unclipped it was
// wrapped into hundreds of thousands of lines on opening the report and again
// on every key and clock tick, freezing the console for seconds each time.
func TestBootProofServiceLabelsAtTheReplyBoundAreClipped(t *testing.T) {
	d := servertest.StartDemo(t)
	reply := signerReplyRewritten(t, d, func(bp map[string]any) {
		bp["deploymentLabel"] = strings.Repeat("Lxxxxxx ", (api.MaxReplyBytes-64<<10)/8)
	})
	if len(reply) > api.MaxReplyBytes {
		t.Fatalf("the reply is %d bytes, over the client's bound", len(reply))
	}
	h := bootProofsServedBy(t, d, reply)
	if r := rowOf(t, h.plain(), "signer"); !strings.Contains(r, "VERIFIED") {
		t.Fatalf("a genuine proof with a long unattested label: %q", r)
	}
	h.key("enter")
	h.bootProofs().list.Pane.GotoBottom()
	out := h.plain()
	// The last screen of the report holds every label: the deployment
	// label's value takes at most a few lines.
	for _, want := range []string{"Service labels (not attested)", "enclave app:", "owner:", "deployment:", "created:"} {
		if !strings.Contains(out, want) {
			t.Errorf("the end of the report lacks %q: the label is not clipped\n%s", want, out)
		}
	}
	if strings.Count(out, "Lxxxxxx") > 40 {
		t.Errorf("the deployment label fills the report:\n%s", out)
	}
	checkFitsScreen(t, out, 80, 24)
}

// A proof one byte of whose attestation document was changed in transit is
// FAILED, naming the check, never VERIFIED.
func TestBootProofWithAChangedByteFails(t *testing.T) {
	d := servertest.StartDemo(t)
	reply := signerReplyRewritten(t, d, func(bp map[string]any) {
		doc, err := base64.StdEncoding.DecodeString(bp["awsAttestationDocB64"].(string))
		if err != nil {
			t.Fatal(err)
		}
		doc[len(doc)-1] ^= 0x01 // the last byte of the COSE signature
		bp["awsAttestationDocB64"] = base64.StdEncoding.EncodeToString(doc)
	})
	h := bootProofsServedBy(t, d, reply)
	out := h.plain()
	if r := rowOf(t, out, "signer"); !strings.Contains(r, "FAILED") || strings.Contains(r, "VERIFIED") {
		t.Errorf("a proof with a changed byte: %q", r)
	}
	if !strings.Contains(out, "✗ cose-signature") {
		t.Errorf("the failed check is not named:\n%s", out)
	}
	checkFitsScreen(t, out, 80, 24)
}

// checkFitsScreen fails if out is taller or wider than the terminal.
func checkFitsScreen(t *testing.T, out string, width, height int) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) > height {
		t.Errorf("%d lines on a %d-line terminal", len(lines), height)
	}
	for _, l := range lines {
		if n := len([]rune(l)); n > width {
			t.Errorf("a line of %d columns on an %d-column terminal: %q", n, width, l)
		}
	}
}
