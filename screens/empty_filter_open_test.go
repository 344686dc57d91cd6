package screens

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// A filter that matches no app leaves no row selected: enter must open
// nothing, not the report of the first app, which the filter hides (a
// mistyped name would show another app's VERIFIED report).
func TestBootProofEnterOnEmptyFilterOpensNothing(t *testing.T) {
	h := newProofHarness(t, proofFake(t), "signer", "tampered")
	h.key("/")
	h.typeText("zzzz")
	h.key("enter") // keep the filter
	if n := h.bootProofs().list.Table.Visible(); n != 0 {
		t.Fatalf("filter zzzz shows %d rows", n)
	}
	h.key("enter")
	if h.bootProofs().open() {
		t.Errorf("enter with no row shown opened a report:\n%s", h.plain())
	}
	if strings.Contains(h.plain(), "Boot proof signer") {
		t.Errorf("the report of signer, hidden by the filter, is shown")
	}
}

// Webhooks likewise: enter with a filter that shows no delivery opens none.
func TestWebhookEnterOnEmptyFilterOpensNothing(t *testing.T) {
	ch := make(chan WebhookDelivery, 1)
	h, r := webhooksHarness(t, ch)
	close(ch)
	h.run(r.Init())
	h.send(webhookDeliveryMsg{d: WebhookDelivery{At: testNow, EventID: "act-1:X", KeyID: "kid", ActivityID: "act-1", Reason: "bad webhook signature: hidden by the filter"}})
	h.key("@Webhooks")
	h.key("/")
	h.typeText("zzzz")
	h.key("enter") // keep the filter
	h.key("enter")
	var w *Webhooks
	for _, s := range r.screens {
		if x, ok := s.(*Webhooks); ok {
			w = x
		}
	}
	if w == nil {
		t.Fatal("no Webhooks screen")
	}
	out := ansi.Strip(r.Render())
	if w.list.IsOpen() || strings.Contains(out, "hidden by the filter") {
		t.Errorf("enter with no delivery shown opened one:\n%s", out)
	}
}
