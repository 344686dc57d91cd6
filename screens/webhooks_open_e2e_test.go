package screens

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// A verified webhook delivery leads to its activity: A in the delivery's
// detail opens it in Activities, fetched from the service, to read and vote
// on. A refused delivery's activity id is only what its sender claimed: A
// opens nothing and says why. Against the local service.
func TestEndToEndWebhookDeliveryOpensItsActivity(t *testing.T) {
	d := servertest.StartDemo(t)
	act, err := d.Client("bob").CreateUserTag(context.Background(), api.CreateUserTagParams{UserTagName: "hooked", UserIDs: []string{d.Info.Members[0].UserID}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", act, err)
	}
	h := webhookConsoleOn(t, d,
		WebhookDelivery{At: time.Now(), Verified: true, EventID: act.ID + ":" + act.Status, KeyID: "kid",
			OrganizationID: d.Info.OrganizationID, ActivityID: act.ID, Type: act.Type, Status: act.Status},
		WebhookDelivery{At: time.Now().Add(time.Second), EventID: act.ID + ":forged", KeyID: "kid",
			ActivityID: act.ID, Reason: "bad webhook signature: forged"})
	h.key("@Webhooks")

	// Under the list A says what to do first.
	h.key("A")
	if h.root.ActiveTitle() != "Webhooks" || !h.toasted("open a delivery first") {
		t.Fatalf("A under the list went to %s, or did not say why it opens nothing", h.root.ActiveTitle())
	}
	// The refused delivery is the newest, on top.
	h.key("enter")
	h.key("A")
	if h.root.ActiveTitle() != "Webhooks" || h.activities().detail != nil {
		t.Fatalf("A on a refused delivery went to %s", h.root.ActiveTitle())
	}
	if !h.toasted("this delivery was refused") {
		t.Errorf("A on a refused delivery does not say why it opens nothing:\n%s", h.frame())
	}

	h.key("esc")
	h.key("down")
	h.key("enter")
	if out := h.frame(); !strings.Contains(out, "verified: signed") || !strings.Contains(out, "A open in Activities") {
		t.Fatalf("the verified delivery's detail does not offer to open its activity:\n%s", out)
	}
	h.key("A")
	if h.root.ActiveTitle() != "Activities" {
		t.Fatalf("A left the user on %s", h.root.ActiveTitle())
	}
	det := h.activities().detail
	if det == nil || det.activity.ID != act.ID {
		t.Fatalf("Activities does not show the delivery's activity %s open:\n%s", act.ID, h.frame())
	}
	// The record is the service's, not the delivery's event: it names what
	// is voted on and who asked.
	if out := h.detailText(); !strings.Contains(out, `"hooked"`) || !strings.Contains(out, `"bob"`) {
		t.Errorf("the opened activity is not the service's record:\n%s", out)
	}
}
