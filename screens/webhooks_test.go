package screens

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/vigil-console/vigil/ui/theme"
)

// The Webhooks screen lists the listener's deliveries as they arrive, newest
// first, says why a refused one was refused, and opens one.
func TestWebhooksScreenShowsLiveDeliveries(t *testing.T) {
	ch := make(chan WebhookDelivery, 4)
	h, r := webhooksHarness(t, ch)
	// The feed's waiting command blocks until a delivery comes: queue two first.
	ch <- WebhookDelivery{At: testNow, Verified: true, EventID: "act-1:ACTIVITY_STATUS_COMPLETED", KeyID: "kid-one",
		ActivityID: "act-1", Type: "ACTIVITY_TYPE_CREATE_USER_TAG", Status: "ACTIVITY_STATUS_COMPLETED"}
	ch <- WebhookDelivery{At: testNow.Add(time.Second), EventID: "act-2:X", KeyID: "forged\x1b[2J",
		ActivityID: "act-2", Reason: "bad webhook signature: event act-2:X does not verify"}
	close(ch)
	h.run(r.Init())
	h.key("@Webhooks")
	if h.root.ActiveTitle() != "Webhooks" {
		t.Fatalf("the Webhooks key went to %s", h.root.ActiveTitle())
	}
	// The selection follows the newest delivery (the refused one), on top.
	out := ansi.Strip(h.root.Render())
	for _, want := range []string{"listening on 127.0.0.1:8430, 2 deliveries", "verified", "REFUSED", "CREATE_USER_TAG", "refused: bad webhook signature"} {
		if !strings.Contains(out, want) {
			t.Errorf("webhooks screen lacks %q:\n%s", want, out)
		}
	}
	if strings.Index(out, "act-2") > strings.Index(out, "act-1") {
		t.Errorf("newest delivery is not first:\n%s", out)
	}
	if strings.Contains(h.root.Render(), "\x1b[2J") {
		t.Error("an escape sequence from a delivery reached the terminal")
	}
	if !strings.Contains(out, "webhook listener stopped") {
		t.Errorf("a closed feed is not reported:\n%s", out)
	}
	h.key("enter")
	out = ansi.Strip(h.root.Render())
	if !strings.Contains(out, "REFUSED") || !strings.Contains(out, "unverified: the event, key, organization and activity fields are what the sender claimed") {
		t.Errorf("detail of a refused delivery:\n%s", out)
	}
}

// Without webhook_listen the screen says how to get one.
func TestWebhooksScreenWithoutListener(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	h.key("@Webhooks")
	if out := ansi.Strip(h.root.Render()); !strings.Contains(out, "set webhook_listen") {
		t.Errorf("no listener:\n%s", out)
	}
	// A console whose deliveries go elsewhere says where instead.
	fake := &fakeClient{activities: sampleActivities()}
	r := NewRoot(Options{Reader: fake, Profile: "demo", Theme: theme.Options{Dark: true, NoColor: true},
		Now: func() time.Time { return testNow }, Static: true, NoWebhooksHint: "deliveries go to the first demo",
		Tick: func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }})
	h = &harness{t: t, root: r, fake: fake}
	h.send(tea.WindowSizeMsg{Width: 120, Height: 30})
	h.key("@Webhooks")
	if out := ansi.Strip(h.root.Render()); !strings.Contains(out, "deliveries go to the first demo") || strings.Contains(out, "webhook_listen") {
		t.Errorf("no listener, with a hint:\n%s", out)
	}
}

// Goldens of the Webhooks screen with deliveries, one verified and one refused,
// at both sizes (the no-listener view is in TestGoldenViews).
func TestGoldenWebhooksWithDeliveries(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			ch := make(chan WebhookDelivery, 2)
			fake := &fakeClient{activities: sampleActivities()}
			r := NewRoot(Options{Reader: fake, Submitter: fake, Profile: "demo", Theme: theme.Options{Dark: true, NoColor: true},
				Now: func() time.Time { return testNow }, Static: true, Webhooks: &WebhookFeed{Addr: "127.0.0.1:8430", Deliveries: ch},
				Tick: func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }})
			h := &harness{t: t, root: r, fake: fake}
			h.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			ch <- WebhookDelivery{At: testNow, Verified: true, EventID: "act-1:ACTIVITY_STATUS_COMPLETED", KeyID: "kid-one",
				ActivityID: "act-1", Type: "ACTIVITY_TYPE_CREATE_USER_TAG", Status: "ACTIVITY_STATUS_COMPLETED"}
			ch <- WebhookDelivery{At: testNow.Add(time.Second), EventID: "act-2:X", KeyID: "kid-old",
				ActivityID: "act-2", Reason: "bad webhook signature: event act-2:X does not verify"}
			close(ch) // the harness runs commands to the end: a feed that waits would block it
			h.run(r.Init())
			h.key("@Webhooks")
			golden.RequireEqual(t, screenFrame(h.root))
		})
	}
}

// An open delivery stays the one shown when another arrives.
func TestOpenDeliveryStaysWhenAnotherArrives(t *testing.T) {
	ch := make(chan WebhookDelivery, 4)
	h, r := webhooksHarness(t, ch)
	close(ch) // the deliveries come as messages below
	h.run(r.Init())
	h.send(webhookDeliveryMsg{d: WebhookDelivery{At: testNow, EventID: "act-1:X", KeyID: "kid", ActivityID: "act-1", Reason: "bad webhook signature: the one I am reading"}})
	h.key("@Webhooks")
	h.key("enter")
	h.send(webhookDeliveryMsg{d: WebhookDelivery{At: testNow.Add(time.Second), Verified: true, EventID: "act-2:Y", KeyID: "kid", ActivityID: "act-2"}})
	out := ansi.Strip(h.root.Render())
	if !strings.Contains(out, "the one I am reading") || strings.Contains(out, "act-2:Y") {
		t.Errorf("the open delivery was replaced:\n%s", out)
	}
}

// webhooksHarness is a console fed by ch, 120×30; the caller queues
// deliveries (or closes ch) before running r.Init().
func webhooksHarness(t *testing.T, ch chan WebhookDelivery) (*harness, *Root) {
	t.Helper()
	fake := &fakeClient{activities: sampleActivities()}
	r := NewRoot(Options{Reader: fake, Submitter: fake, Profile: "demo", Theme: theme.Options{Dark: true, NoColor: true},
		Now: func() time.Time { return testNow }, Static: true, Webhooks: &WebhookFeed{Addr: "127.0.0.1:8430", Deliveries: ch},
		Tick: func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }})
	h := &harness{t: t, root: r, fake: fake}
	h.send(tea.WindowSizeMsg{Width: 120, Height: 30})
	return h, r
}
