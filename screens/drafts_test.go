package screens

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// The MFA editor: an untouched editor closes on esc; a changed one (a field,
// or only the steps) asks first, and No keeps every field and step.
func TestMfaEditorEscAsksBeforeDiscardingADraft(t *testing.T) {
	h, _ := mfaHarness(t, false)
	h.key("n")
	h.key("esc")
	if h.mfa().editor != nil {
		t.Fatal("esc did not close an untouched editor")
	}
	h.key("n")
	h.send(tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl})
	h.key("a") // a second step: the only change
	h.key("esc")
	if out := h.frame(); h.mfa().editor == nil || !strings.Contains(out, "Discard this draft?") {
		t.Fatalf("one esc discarded the steps:\n%s", out)
	}
	h.key("enter") // No
	if e := h.mfa().editor; e == nil || len(e.steps) != 2 {
		t.Fatalf("No did not keep the steps:\n%s", h.frame())
	}
	h.key("esc")
	h.key("y")
	if h.mfa().editor != nil {
		t.Errorf("y did not discard the draft:\n%s", h.frame())
	}
}

// An operation form: a changed one asks before it closes, No puts it back
// as it was, Yes closes it and clears a typed secret.
func TestOperationFormEscAsksBeforeDiscardingADraft(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	openOperation(h, "create invitations")
	h.key("esc")
	if h.root.dialogs.Len() != 0 {
		t.Fatalf("esc did not close an untouched form:\n%s", h.frame())
	}
	openOperation(h, "update oauth2 credential")
	h.typeText("cred-1")
	h.key("tab")
	h.key("tab")
	h.typeText("client-1")
	h.key("tab")
	h.typeText("hunter2")
	form := h.root.dialogs.Top().(*opFormDialog)
	h.key("esc")
	if out := h.frame(); !strings.Contains(out, "Discard this draft?") {
		t.Fatalf("one esc discarded the form:\n%s", out)
	}
	h.key("n")
	if top, ok := h.root.dialogs.Top().(*opFormDialog); !ok || top != form || form.form.Values()["clientId"] != "client-1" {
		t.Fatalf("No did not put the form back as it was:\n%s", h.frame())
	}
	h.key("esc")
	h.key("y")
	if h.root.dialogs.Len() != 0 {
		t.Fatalf("y did not close the form:\n%s", h.frame())
	}
	if got := form.form.Values()["clientSecret"]; got != "" {
		t.Errorf("the discarded form keeps the secret %q", got)
	}
}

// The feature form asks too once something was typed.
func TestFeatureFormEscAsksBeforeDiscardingADraft(t *testing.T) {
	h := newHarness(t, &fakeClient{}, false, 0)
	h.gotoScreen("Organization")
	h.key("s")
	h.key("tab")
	h.typeText("https://hooks.example.com/draft")
	h.key("esc")
	if h.organization().form == nil || !strings.Contains(h.frame(), "Discard this draft?") {
		t.Fatalf("one esc discarded the form:\n%s", h.frame())
	}
	h.key("esc") // No
	if f := h.organization().form; f == nil || f.Values()["value"] != "https://hooks.example.com/draft" {
		t.Fatalf("No did not keep the value:\n%s", h.frame())
	}
	h.key("esc")
	h.key("y")
	if h.organization().form != nil {
		t.Errorf("y did not close the form:\n%s", h.frame())
	}
}
