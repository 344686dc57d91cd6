package screens

import (
	"encoding/base64"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
)

// When the shipped manifest does not decode, the detail shows the attested
// envelope's manifest: with the approvals the approvals check passed on,
// not "Envelope approvals (0 …) (none)" beside "✓ approvals".
func TestBootProofDetailShowsTheEnvelopeApprovalsChecked(t *testing.T) {
	bp := fixtureBootProof(t)
	bp.QosManifestB64 = base64.StdEncoding.EncodeToString([]byte("not a manifest"))
	fake := &fakeClient{activities: sampleActivities(), bootByApp: map[string]*api.BootProof{"signer": bp}}
	h := newProofHarness(t, fake, "signer")
	h.send(tea.WindowSizeMsg{Width: 120, Height: 400}) // the whole detail on screen
	h.key("enter")
	out := h.plain()
	for _, want := range []string{"✗ manifest-decode", "✓ approvals", "Envelope approvals ("} {
		if !strings.Contains(out, want) {
			t.Fatalf("set-up: the detail lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Envelope approvals (0,") || strings.Contains(out, "(none)") {
		t.Errorf("the approvals check passed, but the detail shows none:\n%s", out)
	}
	if !strings.Contains(out, "valid signature by a manifest-set member") {
		t.Errorf("no approval shown as valid:\n%s", out)
	}
}
