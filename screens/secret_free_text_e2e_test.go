package screens

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// Private keys as they get pasted: 64 hex digits, an Ed25519 key in
// base64url, one after "key=". Throwaway keys, made for this test.
var pastedKeys = []string{
	"7fd4d14adaee3004c7864d901064f664be6e8be00ad206476763ac4187fe6bc5",
	"iH7KPILnGmjk-MDF6Y9MfU_HqvsMYkDUUDItviZQTo0",
	"key=7fd4d14adaee3004c7864d901064f664be6e8be00ad206476763ac4187fe6bc5",
}

// wantKeyRefusedUnder checks the field of errs says a private key was
// refused, without showing it a second time.
func wantKeyRefusedUnder(t *testing.T, what string, errs map[string]string, field, frame, key string) {
	t.Helper()
	got := errs[field]
	if !strings.Contains(got, "look like a private key") || !strings.Contains(got, "nothing was sent") {
		t.Errorf("%s: the %s field says %q; want a private key refused, nothing sent\n%s", what, field, got, frame)
	}
	if strings.Contains(got, strings.TrimPrefix(key, "key=")[:20]) {
		t.Errorf("%s: the error shows the key: %q", what, got)
	}
}

// A private key pasted into a name or notes in the console's forms and
// editors is refused under its field, before the confirm: sent, it would be
// recorded in the activity for every member to see, for good.
func TestConsoleFormsRefusePrivateKeyInFreeText(t *testing.T) {
	d := servertest.StartDemo(t)
	count := func() int {
		acts, err := d.Client("alice").ListActivities(context.Background(), api.ListActivitiesOptions{Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		return len(acts)
	}
	before := count()
	var log bytes.Buffer
	h := opsHarness(t, d, &log)
	for _, key := range pastedKeys {
		openOperation(h, "create user tag")
		h.typeText(key)
		h.key("ctrl+s")
		f, ok := h.root.dialogs.Top().(*opFormDialog)
		if !ok {
			t.Fatalf("create user tag named %s was taken to the confirm:\n%s", key, h.frame())
		}
		wantKeyRefusedUnder(t, "tag name", f.form.Errors(), "userTagName", h.frame(), key)
		h.key("esc")
		h.key("y") // discard the typed form

		openOperation(h, "create invitations")
		h.typeText(key + " <dave@example.com>")
		h.key("ctrl+s")
		if f, ok = h.root.dialogs.Top().(*opFormDialog); !ok {
			t.Fatalf("an invitee named %s was taken to the confirm:\n%s", key, h.frame())
		}
		wantKeyRefusedUnder(t, "invitee name", f.form.Errors(), "invitees", h.frame(), key)
		h.key("esc")
		h.key("y")
	}

	h.gotoScreen("Policies")
	p := h.policies()
	for _, key := range pastedKeys {
		h.key("n")
		if p.editor == nil {
			t.Fatal("n did not open the policy editor")
		}
		fillPolicyDraft(h, key, false, "", "")
		h.key("tab") // notes
		h.typeText("the key is " + key)
		h.key("ctrl+s")
		if _, ok := h.root.dialogs.Top().(*ConfirmDialog); ok {
			t.Fatalf("a policy named %s was taken to the confirm:\n%s", key, h.frame())
		}
		errs := p.editor.form.Errors()
		wantKeyRefusedUnder(t, "policy name", errs, "name", h.plainFrame(), key)
		wantKeyRefusedUnder(t, "policy notes", errs, "notes", h.plainFrame(), key)
		p.editor = nil
	}

	h.gotoScreen("MFA policies")
	for _, key := range pastedKeys {
		h.key("n")
		e := h.mfa().editor
		if e == nil {
			t.Fatalf("n opened no MFA editor:\n%s", h.frame())
		}
		h.typeText(key)
		h.key("tab")
		h.key("tab")
		h.key("tab") // notes
		h.typeText(key)
		h.send(ctrlS)
		if _, ok := h.root.dialogs.Top().(*ConfirmDialog); ok {
			t.Fatalf("an MFA policy named %s was taken to the confirm:\n%s", key, h.frame())
		}
		errs := e.form.Errors()
		wantKeyRefusedUnder(t, "MFA policy name", errs, "name", h.plainFrame(), key)
		wantKeyRefusedUnder(t, "MFA policy notes", errs, "notes", h.plainFrame(), key)
		h.mfa().editor = nil
	}
	if n := count(); n != before {
		t.Errorf("%d activities, were %d: a refused form sent one", n, before)
	}
}

// A policy named after the manifest hash its condition pins is no key
// pasted by mistake: the condition sends the hash anyway, so the editor
// takes the draft to the confirm.
func TestPolicyEditorTakesANameHoldingTheHashItsConditionPins(t *testing.T) {
	d := servertest.StartDemo(t)
	h := memberConsole(t, d.Client("alice"))
	h.gotoScreen("Policies")
	p := h.policies()
	h.key("n")
	if p.editor == nil {
		t.Fatal("n did not open the policy editor")
	}
	const manifestHash = "3f2a5c1e9b7d4a6f8e0c2b4d6f8a0c2e4b6d8f0a2c4e6b8d0f2a4c6e8b0d2f4a"
	fillPolicyDraft(h, "allow manifest "+manifestHash, true, "activity.type == '"+manifestHash+"'", "")
	h.key("ctrl+s")
	if _, ok := h.root.dialogs.Top().(*ConfirmDialog); !ok {
		t.Fatalf("the draft was not taken to the confirm; errors %v\n%s", p.editor.form.Errors(), h.plainFrame())
	}
}
