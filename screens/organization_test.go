package screens

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

func (h *harness) organization() *Organization {
	for _, s := range h.root.screens {
		if o, ok := s.(*Organization); ok {
			return o
		}
	}
	h.t.Fatal("no Organization screen")
	return nil
}

func (h *harness) gotoScreen(title string) {
	h.t.Helper()
	for i, s := range h.root.screens {
		if s.Title() == title {
			h.key(string(rune('1' + i)))
			return
		}
	}
	h.t.Fatalf("no screen %q", title)
}

func (h *harness) toasted(text string) bool {
	for _, m := range h.msgs {
		if t, ok := m.(ui.ToastMsg); ok && strings.Contains(t.Text, text) {
			return true
		}
	}
	return false
}

var ctrlS = tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl}

// pickFeature moves the form's name choice to name.
func (h *harness) pickFeature(name string) {
	h.t.Helper()
	o := h.organization()
	for range api.FeatureNames() {
		if o.form.Values()["name"] == name {
			return
		}
		h.send(tea.KeyPressMsg{Code: tea.KeyRight})
	}
	h.t.Fatalf("feature %s not offered", name)
}

func TestOrganizationSetFeatureRefusesEachBadValue(t *testing.T) {
	cases := []struct{ feature, value, want string }{
		{api.FeatureWebhook, "hooks.example.com", "absolute http(s) URL"},
		{api.FeatureWebauthnOrigins, "", "at least one origin"},
		{api.FeatureWebauthnOrigins, "https://a.example.com,", "origin 2: empty"},
		{api.FeatureWebauthnOrigins, "https://a.example.com/login", "has more than"},
		{api.FeatureEmailAuth, "yes", "is a toggle"},
	}
	for _, c := range cases {
		t.Run(c.feature+"="+c.value, func(t *testing.T) {
			fake := &fakeClient{}
			h := newHarness(t, fake, false, 0)
			h.gotoScreen("Organization")
			h.key("s")
			if h.organization().form == nil {
				t.Fatalf("s did not open the form:\n%s", h.frame())
			}
			h.pickFeature(c.feature)
			h.key("tab")
			h.typeText(c.value)
			h.send(ctrlS)
			if out := h.frame(); !strings.Contains(out, c.want) {
				t.Errorf("no %q in:\n%s", c.want, out)
			}
			if h.root.dialogs.Len() != 0 || len(fake.featureSets) != 0 {
				t.Error("an invalid value reached the confirm or the service")
			}
		})
	}
}

func TestOrganizationSetFeatureConfirmsThenFollowsTheActivity(t *testing.T) {
	fake := &fakeClient{}
	h := newHarness(t, fake, false, 0)
	h.gotoScreen("Organization")
	h.key("s")
	h.pickFeature(api.FeatureEmailAuth)
	h.key("tab")
	h.typeText("disabled")
	h.send(ctrlS)
	out := h.frame()
	for _, want := range []string{`new value: "disabled"`, `replaces the current value ""`, "root quorum must approve: 2 of 3"} {
		if !strings.Contains(out, want) {
			t.Errorf("confirm lacks %q:\n%s", want, out)
		}
	}
	h.key("enter") // No is the default
	if len(fake.featureSets) != 0 {
		t.Fatal("enter submitted; the confirm must default to No")
	}
	h.key("esc") // No returned to the form; esc asks, y discards it
	h.key("y")
	h.key("s")
	h.pickFeature(api.FeatureWebhook)
	h.key("tab")
	h.typeText("https://hooks.example.com/v")
	h.send(ctrlS)
	if !strings.Contains(h.frame(), "it is not set today") {
		t.Errorf("confirm does not say the feature is unset:\n%s", h.frame())
	}
	h.key("y")
	want := api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: "https://hooks.example.com/v"}
	if len(fake.featureSets) != 1 || fake.featureSets[0] != want {
		t.Fatalf("submitted %v, want %v", fake.featureSets, want)
	}
	if got := h.root.ActiveTitle(); got != "Activities" {
		t.Errorf("after submitting the console shows %s, want Activities", got)
	}
	if a := h.activities(); a.detail == nil || a.detail.activity.ID != "act-feature" {
		t.Errorf("the submitted activity is not open:\n%s", h.frame())
	}
}

func TestOrganizationSetFeatureOnlyForRootMembers(t *testing.T) {
	t.Run("not root", func(t *testing.T) {
		fake := &fakeClient{who: &api.WhoamiResponse{OrganizationID: "org-1", UserID: "u-operator", Username: "operator"}}
		h := newHarness(t, fake, false, 0)
		h.gotoScreen("Organization")
		if !strings.Contains(h.frame(), "only root quorum members can set a feature; operator is not one") {
			t.Errorf("the screen does not say why:\n%s", h.frame())
		}
		h.key("s")
		if h.organization().form != nil || !h.toasted("only root quorum members") {
			t.Error("a non-root user got the form, or no reason")
		}
	})
	t.Run("read-only", func(t *testing.T) {
		h := newHarness(t, &fakeClient{}, true, 0)
		h.gotoScreen("Organization")
		h.key("s")
		if h.organization().form != nil || !h.toasted("read-only") {
			t.Error("read-only console opened the form")
		}
	})
	t.Run("esc cancels", func(t *testing.T) {
		h := newHarness(t, &fakeClient{}, false, 0)
		h.gotoScreen("Organization")
		h.key("s")
		h.key("esc")
		if h.organization().form != nil || h.root.ActiveTitle() != "Organization" {
			t.Error("esc did not close only the form")
		}
	})
}

// No (or esc) on the confirm returns to the form with everything typed; a
// failed submission keeps it too; only a successful one clears it.
func TestOrganizationSetFeatureNoReturnsToTheForm(t *testing.T) {
	fake := &fakeClient{featureErr: errors.New("service unavailable")}
	h := newHarness(t, fake, false, 0)
	h.gotoScreen("Organization")
	h.key("s")
	h.pickFeature(api.FeatureWebhook)
	h.key("tab")
	h.typeText("http://x/")
	for _, answer := range []string{"n", "esc"} {
		h.send(ctrlS)
		if !strings.Contains(h.frame(), "Set WEBHOOK?") {
			t.Fatalf("no confirm:\n%s", h.frame())
		}
		h.key(answer)
		o := h.organization()
		if h.root.dialogs.Len() != 0 || o.form == nil {
			t.Fatalf("%s on the confirm: form open %v, dialogs %d:\n%s", answer, o.form != nil, h.root.dialogs.Len(), h.frame())
		}
		if v := o.form.Values(); v["name"] != api.FeatureWebhook || v["value"] != "http://x/" || o.form.Focused() != "value" {
			t.Errorf("%s on the confirm: form %v focused on %s, want what was typed", answer, v, o.form.Focused())
		}
		if out := h.frame(); !strings.Contains(out, "http://x/") || !strings.Contains(out, "WEBHOOK") {
			t.Errorf("%s on the confirm: the form does not show what was typed:\n%s", answer, out)
		}
	}
	if len(fake.featureSets) != 0 {
		t.Fatalf("a No submitted: %v", fake.featureSets)
	}
	h.send(ctrlS)
	h.key("y")
	if len(fake.featureSets) != 1 || !h.toasted("service unavailable") {
		t.Fatalf("submitted %v; the failure is not said", fake.featureSets)
	}
	if o := h.organization(); o.form == nil || o.form.Values()["value"] != "http://x/" {
		t.Fatalf("a failed submission lost the form:\n%s", h.frame())
	}
	fake.featureErr = nil
	h.send(ctrlS)
	h.key("y")
	if len(fake.featureSets) != 2 || h.root.ActiveTitle() != "Activities" {
		t.Fatalf("submitted %v, on %s", fake.featureSets, h.root.ActiveTitle())
	}
	h.gotoScreen("Organization")
	if h.organization().form != nil {
		t.Fatal("the form is still open after a successful submission")
	}
	h.key("s")
	if v := h.organization().form.Values()["value"]; v != "" {
		t.Errorf("after a successful submission s opens a form holding %q", v)
	}
}

// While a submission is in flight no new form opens: its answer closes the
// form it came from, and would take a new one, and what was typed, with it.
func TestNoNewFeatureFormWhileOneIsSubmitted(t *testing.T) {
	h := newHarness(t, &fakeClient{}, false, 0)
	h.gotoScreen("Organization")
	var o *Organization
	for _, s := range h.root.screens {
		if org, ok := s.(*Organization); ok {
			o = org
		}
	}
	o.submitting = &Submission{What: "set_organization_feature"}
	before := len(h.root.log.entries)
	h.key("s")
	if o.form != nil {
		t.Fatal("a form opened while a submission was in flight")
	}
	if got := h.root.log.entries[before:]; len(got) != 1 || !strings.Contains(got[0].text, "being submitted") {
		t.Errorf("s while submitting: %+v", got)
	}
}
