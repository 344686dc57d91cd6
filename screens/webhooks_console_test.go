package screens

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// webhookConsoleAt is a console on the fake client whose clocks read
// *machine, its Webhooks screen fed the deliveries given before its feed
// closes; the console is at Activities, started and 120x30.
func webhookConsoleAt(t *testing.T, machine *time.Time, deliveries ...WebhookDelivery) *harness {
	t.Helper()
	ch := make(chan WebhookDelivery, len(deliveries))
	for _, d := range deliveries {
		ch <- d
	}
	close(ch)
	fake := &fakeClient{activities: sampleActivities()}
	now := func() time.Time { return *machine }
	r := NewRoot(Options{Reader: fake, Submitter: fake, Profile: "demo", Theme: theme.Options{Dark: true, NoColor: true},
		Now: now, MachineNow: now, Static: true, Webhooks: &WebhookFeed{Addr: "127.0.0.1:8430", Deliveries: ch},
		Tick: func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }})
	h := &harness{t: t, root: r, fake: fake}
	h.send(tea.WindowSizeMsg{Width: 120, Height: 30})
	h.run(r.Init())
	return h
}

// webhookConsoleOn is alice's console on the demo service d, its Webhooks
// screen fed the deliveries given before its feed closes; the console is at
// Activities, started and 160x48.
func webhookConsoleOn(t *testing.T, d *servertest.Demo, deliveries ...WebhookDelivery) *harness {
	t.Helper()
	ch := make(chan WebhookDelivery, len(deliveries))
	for _, d := range deliveries {
		ch <- d
	}
	close(ch)
	alice := d.Client("alice")
	r := NewRoot(Options{Reader: alice, Submitter: alice, Profile: "demo", Theme: theme.Options{Dark: true, NoColor: true},
		Static: true, Webhooks: &WebhookFeed{Addr: "127.0.0.1:0", Deliveries: ch},
		Tick: func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }})
	h := &harness{t: t, root: r}
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	h.run(r.Init())
	return h
}
