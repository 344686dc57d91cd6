package screens

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// An open delivery's "received … (N ago)" counts up with the clock, as every
// other detail's ages do, on show and after the screen was hidden.
func TestWebhookDeliveryAgeCountsUp(t *testing.T) {
	machine := testNow
	h := webhookConsoleAt(t, &machine, WebhookDelivery{At: testNow.Add(-37 * time.Second), Verified: true, EventID: "act-1:ACTIVITY_STATUS_COMPLETED", KeyID: "kid-one",
		ActivityID: "act-1", Type: "ACTIVITY_TYPE_CREATE_USER_TAG", Status: "ACTIVITY_STATUS_COMPLETED"})
	h.key("@Webhooks")
	h.key("enter")
	received := func() string {
		t.Helper()
		for _, l := range strings.Split(ansi.Strip(h.root.Render()), "\n") {
			if strings.Contains(l, "received") {
				return l
			}
		}
		t.Fatalf("no received line:\n%s", ansi.Strip(h.root.Render()))
		return ""
	}
	if l := received(); !strings.Contains(l, "(37s ago)") {
		t.Fatalf("received line before the tick: %q", l)
	}
	machine = machine.Add(2 * time.Minute)
	h.send(clockMsg{})
	if l := received(); !strings.Contains(l, "(2m37s ago)") && !strings.Contains(l, "(2m ago)") && !strings.Contains(l, "(3m ago)") {
		t.Errorf("the age did not count up with the clock: %q", l)
	}
}
