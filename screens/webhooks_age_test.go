package screens

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/ui/theme"
)

// An open delivery's "received … (N ago)" counts up with the clock, as every
// other detail's ages do, on show and after the screen was hidden.
func TestWebhookDeliveryAgeCountsUp(t *testing.T) {
	machine := testNow
	ch := make(chan WebhookDelivery, 1)
	fake := &fakeClient{activities: sampleActivities()}
	r := NewRoot(Options{Reader: fake, Submitter: fake, Profile: "demo", Theme: theme.Options{Dark: true, NoColor: true},
		Now: func() time.Time { return machine }, MachineNow: func() time.Time { return machine },
		Static: true, Webhooks: &WebhookFeed{Addr: "127.0.0.1:8430", Deliveries: ch},
		Tick: func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }})
	h := &harness{t: t, root: r, fake: fake}
	h.send(tea.WindowSizeMsg{Width: 120, Height: 30})
	ch <- WebhookDelivery{At: testNow.Add(-37 * time.Second), Verified: true, EventID: "act-1:ACTIVITY_STATUS_COMPLETED", KeyID: "kid-one",
		ActivityID: "act-1", Type: "ACTIVITY_TYPE_CREATE_USER_TAG", Status: "ACTIVITY_STATUS_COMPLETED"}
	close(ch)
	h.run(r.Init())
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
