package screens

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// An open refused delivery pushed out of the list by newer refusals (anyone
// who reaches the listener can send them) stays the one shown, says it is no
// longer listed, and y copies its event id: the detail never turns into the
// row the selection fell on.
func TestOpenDeliveryPushedOutOfTheListStaysShown(t *testing.T) {
	machine := testNow
	h := webhookConsoleAt(t, &machine, WebhookDelivery{At: testNow.Add(-37 * time.Second), Reason: "bad webhook signature: the one I opened", EventID: "evt-opened",
		ActivityID: "act-opened", Type: "ACTIVITY_TYPE_CREATE_USER_TAG", Status: "ACTIVITY_STATUS_COMPLETED"})
	h.key("@Webhooks")
	h.key("enter")
	if s := ansi.Strip(h.root.Render()); !strings.Contains(s, "act-opened") {
		t.Fatalf("the delivery did not open:\n%s", s)
	}
	closed := make(chan WebhookDelivery)
	close(closed)
	for i := range maxRefusedWebhookRows {
		h.send(webhookDeliveryMsg{WebhookDelivery{At: testNow.Add(time.Duration(i) * time.Second), Reason: fmt.Sprintf("forged-%d", i),
			EventID: fmt.Sprintf("evt-forged-%d", i), ActivityID: fmt.Sprintf("act-forged-%d", i)}, closed})
	}
	machine = machine.Add(time.Minute)
	h.send(clockMsg{}) // the detail's age redraws
	s := ansi.Strip(h.root.Render())
	for _, want := range []string{"act-opened", "the one I opened", "no longer listed"} {
		if !strings.Contains(s, want) {
			t.Errorf("the open detail lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "forged-") {
		t.Errorf("the open detail shows another delivery:\n%s", s)
	}
	h.key("y")
	if !h.toasted("copied event id evt-opened") {
		t.Errorf("y did not copy the open delivery's event id: %v", h.msgs)
	}
}

// A on an open verified delivery pushed out of the list by newer verified
// ones opens the activity it named, not the activity of the row the
// selection fell on. Against the local service.
func TestOpenDeliveryPushedOutOfTheListOpensItsOwnActivity(t *testing.T) {
	d := servertest.StartDemo(t)
	bob := d.Client("bob")
	var acts []*api.Activity
	for _, tag := range []string{"opened", "newer"} {
		a, err := bob.CreateUserTag(context.Background(), api.CreateUserTagParams{UserTagName: tag, UserIDs: []string{d.Info.Members[0].UserID}})
		if err != nil {
			t.Fatalf("propose %s: %v", tag, err)
		}
		acts = append(acts, a)
	}
	opened, newer := acts[0], acts[1]
	verified := func(a *api.Activity, at time.Time, event string) WebhookDelivery {
		return WebhookDelivery{At: at, Verified: true, EventID: event, KeyID: "kid",
			OrganizationID: d.Info.OrganizationID, ActivityID: a.ID, Type: a.Type, Status: a.Status}
	}
	start := time.Now()
	h := webhookConsoleOn(t, d, verified(opened, start, opened.ID+":"+opened.Status))
	h.key("@Webhooks")
	h.key("enter")
	closed := make(chan WebhookDelivery)
	close(closed)
	for i := range maxVerifiedWebhookRows {
		h.send(webhookDeliveryMsg{verified(newer, start.Add(time.Duration(i+1)*time.Millisecond), fmt.Sprintf("%s:%d", newer.ID, i)), closed})
	}
	if out := h.frame(); !strings.Contains(out, opened.ID) || !strings.Contains(out, "no longer listed") {
		t.Fatalf("the open detail does not show the delivery opened, no longer listed:\n%s", out)
	}
	h.key("A")
	if det := h.activities().detail; h.root.ActiveTitle() != "Activities" || det == nil || det.activity.ID != opened.ID {
		t.Fatalf("A did not open the open delivery's activity %s:\n%s", opened.ID, h.frame())
	}
}
