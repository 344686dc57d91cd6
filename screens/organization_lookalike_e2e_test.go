package screens

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// lookalikeWebhook is a webhook URL whose host has two Cyrillic "о"s: in plain
// text it reads exactly as https://hooks.example.com/v.
const lookalikeWebhook = "https://h\u043e\u043eks.example.com/v"

// Wherever the console shows a feature's value (the Organization screen's
// list, the form's current value, the set-feature confirm: the new value and
// the one it replaces) it marks look-alike letters as the approvers' view
// does (api.Quote), so a look-alike webhook host never reads as the real one.
// Against the local service.
func TestFeatureValuesShowLookalikeLettersWhereverShown(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	act, err := d.Client("alice").SetOrganizationFeature(ctx, api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: lookalikeWebhook})
	if err != nil {
		t.Fatalf("set the look-alike webhook: %v", err)
	}
	if act.Status != api.StatusCompleted {
		if act, err = d.Client("bob").ApproveActivity(ctx, act.Fingerprint); err != nil || act.Status != api.StatusCompleted {
			t.Fatalf("approve the look-alike webhook: %+v %v", act, err)
		}
	}
	marked := api.Quote(lookalikeWebhook)
	if marked == `"`+lookalikeWebhook+`"` {
		t.Fatalf("api.Quote(%s) does not mark the look-alikes; the test would prove nothing", marked)
	}

	alice := d.Client("alice")
	h := newHarnessWith(t, alice, alice, theme.Options{Dark: true, NoColor: true}, 0)
	h.gotoScreen("Organization")
	if out := h.frame(); !strings.Contains(out, marked) || strings.Contains(out, lookalikeWebhook) {
		t.Errorf("the Organization screen's list does not show the webhook as %s:\n%s", marked, out)
	}

	h.key("s")
	h.pickFeature(api.FeatureWebhook)
	if out := h.frame(); !strings.Contains(out, "current value: "+marked) {
		t.Errorf("the form's current value is not shown as %s:\n%s", marked, out)
	}

	// A second look-alike typed as the new value: the confirm marks both.
	typed := "https://hooks.ex\u0430mple.com/v" // Cyrillic а
	h.key("tab")
	h.typeText(typed)
	h.send(ctrlS)
	out := h.frame()
	if !strings.Contains(out, "new value: "+api.Quote(typed)) {
		t.Errorf("the confirm does not show the new value as %s:\n%s", api.Quote(typed), out)
	}
	if !strings.Contains(out, "replaces the current value "+marked) {
		t.Errorf("the confirm does not show the value it replaces as %s:\n%s", marked, out)
	}
}
