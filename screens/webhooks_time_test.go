package screens

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/ui/theme"
)

// Away from UTC, a delivery's time reads the same in the list and in its
// detail — in the console's zone, labelled, the detail with UTC beside it —
// and the status bar's "refreshed" time is labelled with the zone too, so
// nobody matches a local time against a UTC log line unknowingly.
func TestWebhookTimesAndRefreshedTimeNameTheirZone(t *testing.T) {
	jst := time.FixedZone("JST", 9*3600)
	now := testNow.In(jst)
	ch := make(chan WebhookDelivery, 1)
	fake := &fakeClient{activities: sampleActivities()}
	r := NewRoot(Options{Reader: fake, Submitter: fake, Profile: "demo", Theme: theme.Options{Dark: true, NoColor: true},
		Now: func() time.Time { return now }, Static: true, Webhooks: &WebhookFeed{Addr: "127.0.0.1:8430", Deliveries: ch},
		Tick: func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }})
	h := &harness{t: t, root: r, fake: fake}
	h.send(tea.WindowSizeMsg{Width: 120, Height: 30})
	at := testNow.Add(-3 * time.Minute) // a UTC time, as a delivery's may be
	ch <- WebhookDelivery{At: at.UTC(), Verified: true, EventID: "act-1:ACTIVITY_STATUS_COMPLETED", KeyID: "kid-one",
		ActivityID: "act-1", Type: "ACTIVITY_TYPE_CREATE_USER_TAG", Status: "ACTIVITY_STATUS_COMPLETED"}
	close(ch)
	h.run(r.Init())
	activities := ansi.Strip(h.root.Render())
	if want := "refreshed " + now.Format("15:04:05") + " JST"; !strings.Contains(activities, want) {
		t.Errorf("the status bar does not say %q:\n%s", want, activities)
	}
	h.key("@Webhooks")
	list := ansi.Strip(h.root.Render())
	local := at.In(jst).Format("15:04:05") + " JST"
	if !strings.Contains(list, local) {
		t.Errorf("the list does not show the delivery at %s:\n%s", local, list)
	}
	h.key("enter")
	detail := ansi.Strip(h.root.Render())
	if !strings.Contains(detail, local) || !strings.Contains(detail, at.UTC().Format("15:04:05")+" UTC") {
		t.Errorf("the detail does not show the delivery at %s and in UTC:\n%s", local, detail)
	}
}

// Away from UTC, the heading's time of the last refusal not listed is
// written as the list's TIME column writes a delivery's: in the console's
// zone, labelled.
func TestWebhookUnlistedRefusalTimeNamesItsZone(t *testing.T) {
	jst := time.FixedZone("JST", 9*3600)
	now := testNow.In(jst)
	ch := make(chan WebhookDelivery, 1)
	fake := &fakeClient{activities: sampleActivities()}
	r := NewRoot(Options{Reader: fake, Submitter: fake, Profile: "demo", Theme: theme.Options{Dark: true, NoColor: true},
		Now: func() time.Time { return now }, Static: true, Webhooks: &WebhookFeed{Addr: "127.0.0.1:8430", Deliveries: ch},
		Tick: func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }})
	h := &harness{t: t, root: r, fake: fake}
	h.send(tea.WindowSizeMsg{Width: 160, Height: 30})
	delivered, refused := testNow.Add(-3*time.Minute).UTC(), testNow.Add(-time.Minute).UTC()
	ch <- WebhookDelivery{At: delivered, Verified: true, EventID: "act-1:ACTIVITY_STATUS_COMPLETED", KeyID: "kid-one",
		ActivityID: "act-1", Type: "ACTIVITY_TYPE_CREATE_USER_TAG", Status: "ACTIVITY_STATUS_COMPLETED"}
	close(ch)
	h.run(r.Init())
	h.key("@Webhooks")
	h.send(webhookUnlistedMsg{WebhookUnlisted{Count: 2, Last: WebhookDelivery{At: refused, Reason: "missing header X-Service-Signature"}}})
	out := ansi.Strip(h.root.Render())
	if row := delivered.In(jst).Format("15:04:05") + " JST"; !strings.Contains(out, row) {
		t.Fatalf("the list does not show the delivery at %s:\n%s", row, out)
	}
	if want := "last " + refused.In(jst).Format("15:04:05") + " JST: missing header"; !strings.Contains(out, want) {
		t.Errorf("the heading does not say %q, the list's convention:\n%s", want, out)
	}
}
