package screens

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// An open MFA policy that a reload no longer lists (deleted meanwhile) stays
// shown as last loaded, but marked "no longer listed", as the Policies screen
// marks its own: shown unmarked it would read as still applying.
func TestMfaOpenPolicyNoLongerListedIsSaid(t *testing.T) {
	h, fake := mfaHarness(t, false)
	h.key("enter") // the first in order: "big transfers"
	m := h.mfa()
	if m.openID != "mp-1" {
		t.Fatalf("enter opened %q, want mp-1", m.openID)
	}
	fake.mu.Lock()
	fake.mfaPolicies = map[string][]api.MfaPolicy{"u-alice": alicePolicies()["u-alice"][:1]} // mp-1 deleted
	fake.mu.Unlock()
	h.msgs = nil
	h.send(orgChangedMsg{}) // a vote or submit reloads the screen
	out := h.frame()
	if !strings.Contains(out, "⚠ no longer listed") || !strings.Contains(out, "big transfers") {
		t.Errorf("the open policy is no longer listed, and its detail does not say so:\n%s", out)
	}
	if !toasted(h.msgs, "no longer listed") {
		t.Errorf("the reload did not say the open policy is gone: %v", h.msgs)
	}
	// Back, and listed again: the mark goes.
	h.key("esc")
	fake.mu.Lock()
	fake.mfaPolicies = alicePolicies()
	fake.mu.Unlock()
	h.send(orgChangedMsg{})
	h.key("enter")
	if out := h.frame(); strings.Contains(out, "⚠ no longer listed") {
		t.Errorf("a listed policy is marked no longer listed:\n%s", out)
	}
}
