package screens

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
)

// An API_KEY method is pinned to one of the user's API keys (the service
// matches an API-key vote by the key's id), never to a passkey, which no
// API-key vote can match; the confirm names it as the API key it is.
func TestMfaEditorPinsAnAPIKeyMethodToAnAPIKey(t *testing.T) {
	h, fake := mfaHarness(t, false)
	h.key("n")
	h.typeText("pinned key")
	h.send(tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl}) // steps
	h.key("t")                                           // PASSKEY -> API_KEY
	h.key("i")                                           // pin it
	h.send(ctrlS)
	confirm := h.frame()
	h.key("y")
	if len(fake.mfaCreates) != 1 {
		t.Fatalf("created %d policies:\n%s", len(fake.mfaCreates), confirm)
	}
	m := fake.mfaCreates[0].RequiredAuthenticationMethods[0].Any[0]
	if m.Type != api.AuthAPIKey {
		t.Fatalf("method %+v", m)
	}
	var keyName string
	for _, u := range governanceUsers() {
		for _, k := range u.APIKeys {
			if u.UserName == "alice" && k.APIKeyID == m.ID {
				keyName = k.APIKeyName
			}
		}
	}
	if keyName == "" {
		t.Fatalf("the API_KEY method is pinned to %q, none of alice's API keys; confirm:\n%s", m.ID, confirm)
	}
	if !strings.Contains(confirm, `API key "`+keyName+`"`) {
		t.Errorf("the confirm does not name the API key %q:\n%s", keyName, confirm)
	}
}

// Changing a method's type drops its pin: a passkey id kept on an API_KEY
// method would make a step no vote satisfies.
func TestMfaEditorTypeChangeClearsThePin(t *testing.T) {
	h, fake := mfaHarness(t, false)
	h.key("n")
	h.typeText("was pinned")
	h.send(tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl})
	h.key("i") // PASSKEY pinned to alice's passkey
	if !strings.Contains(h.frame(), "yubikey") {
		t.Fatalf("`i` on a PASSKEY method did not pin alice's passkey:\n%s", h.frame())
	}
	h.key("t") // -> API_KEY
	h.send(ctrlS)
	h.key("y")
	if len(fake.mfaCreates) != 1 {
		t.Fatalf("created %d policies:\n%s", len(fake.mfaCreates), h.frame())
	}
	if m := fake.mfaCreates[0].RequiredAuthenticationMethods[0].Any[0]; m.Type != api.AuthAPIKey || m.ID != "" {
		t.Errorf("after `t` the method is %+v, want API_KEY with no id", m)
	}
}

// A type no credential of the user proves has nothing to pin, and `i` says so.
func TestMfaEditorSaysWhenThereIsNothingToPin(t *testing.T) {
	h, _ := mfaHarness(t, false)
	h.key("n")
	h.typeText("sms")
	h.send(tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl})
	for range len(api.AuthenticationTypes()) {
		if strings.Contains(h.frame(), "[SMS_OTP]") || strings.Contains(h.frame(), "[SMS") {
			break
		}
		h.key("t")
	}
	h.key("i")
	if out := h.frame(); !strings.Contains(out, "no SMS") || !strings.Contains(out, "to pin") {
		t.Errorf("`i` on an SMS_OTP method says nothing:\n%s", out)
	}
}
