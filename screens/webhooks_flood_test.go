package screens

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/ui/theme"
)

// A flood of refused deliveries does not push a verified one off the list;
// a redelivery is counted on the row of the event it repeats, not listed as
// new; the refusals not listed are counted in the heading.
func TestWebhooksKeepVerifiedRowsThroughARefusedFlood(t *testing.T) {
	ch := make(chan WebhookDelivery)
	h, r := webhooksHarness(t, ch)
	close(ch)
	h.run(r.Init())
	h.key("@Webhooks")
	h.send(webhookDeliveryMsg{d: WebhookDelivery{At: testNow, Verified: true, EventID: "act-1:ACTIVITY_STATUS_COMPLETED",
		KeyID: "kid", ActivityID: "act-genuine", Status: "ACTIVITY_STATUS_COMPLETED"}})
	const flood = 3000
	for i := range flood {
		h.send(webhookDeliveryMsg{d: WebhookDelivery{At: testNow.Add(time.Duration(i+1) * time.Millisecond),
			EventID: fmt.Sprintf("junk-%d", i), ActivityID: fmt.Sprintf("junk-%d", i), Reason: "bad webhook signature"}})
	}
	h.send(webhookDeliveryMsg{d: WebhookDelivery{At: testNow.Add(time.Hour), Verified: true, Redelivery: true,
		EventID: "act-1:ACTIVITY_STATUS_COMPLETED", KeyID: "kid", ActivityID: "act-genuine"}})
	h.send(webhookUnlistedMsg{WebhookUnlisted{Count: 5000, Last: WebhookDelivery{At: testNow, Reason: "missing header X-Service-Signature"}}})

	w := h.root.screens[h.root.active].(*Webhooks)
	verified, refused := 0, 0
	for _, d := range w.items {
		if d.Verified {
			verified++
			if d.redeliveries != 1 {
				t.Errorf("the redelivery was not counted on its event's row: %+v", d)
			}
		} else {
			refused++
		}
	}
	if verified != 1 {
		t.Errorf("%d verified rows after %d refusals and a redelivery, want the one delivery", verified, flood)
	}
	if refused >= flood {
		t.Errorf("all %d refusals are kept: the list is unbounded", refused)
	}
	out := ansi.Strip(h.root.Render())
	if !strings.Contains(out, "5000 refused requests not listed") {
		t.Errorf("the unlisted refusals are not counted in the heading:\n%s", out)
	}
}

// The listener's memory of accepted events starts at each start: a delivery
// signed before then is not called "not a replay".
func TestWebhookVerdictSaysWhatTheListenerCannotKnow(t *testing.T) {
	since := testNow.Add(-time.Minute)
	fake := &fakeClient{activities: sampleActivities()}
	ch := make(chan WebhookDelivery)
	close(ch)
	r := NewRoot(Options{Reader: fake, Submitter: fake, Profile: "demo", Theme: theme.Options{Dark: true, NoColor: true},
		Now: func() time.Time { return testNow }, Static: true, Webhooks: &WebhookFeed{Addr: "127.0.0.1:8430", Since: since, Deliveries: ch},
		Tick: func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }})
	h := &harness{t: t, root: r, fake: fake}
	h.send(tea.WindowSizeMsg{Width: 200, Height: 30})
	h.run(r.Init())
	h.key("@Webhooks")
	h.send(webhookDeliveryMsg{d: WebhookDelivery{At: testNow, Verified: true, SignedAt: since.Add(-2 * time.Minute),
		EventID: "act-1:X", KeyID: "kid", ActivityID: "act-1"}})
	h.key("enter")
	out := ansi.Strip(h.root.Render())
	if strings.Contains(out, "not a replay") || !strings.Contains(out, "whether it was delivered before is unknown") {
		t.Errorf("a delivery signed before the listener started:\n%s", out)
	}
}
