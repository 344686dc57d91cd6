package screens

import (
	"context"
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// In an organization of a thousand users, u picks any of them by name: a few
// letters and enter, and only that user's MFA policies are loaded.
func TestMfaPoliciesPickAUserByNameAmongThousands(t *testing.T) {
	d := servertest.StartDemo(t)
	d.AddPlainUsers(1000)
	h := demoHarnessWithin(t, d.Client("alice"), ProofSettings{Apps: d.Info.EnclaveApps}, largeOrgCommands)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	h.gotoScreen("MFA policies")
	const want = "user-00999"
	h.key("u")
	if _, ok := h.root.dialogs.Top().(*pickerDialog); !ok {
		t.Fatalf("u opened no user picker:\n%s", h.frame())
	}
	gen := h.mfa().gen
	h.typeText(want)
	h.key("enter")
	if !strings.Contains(h.frame(), "MFA policies of "+want) {
		t.Fatalf("picking %s did not show its MFA policies:\n%s", want, h.frame())
	}
	if loads := h.mfa().gen - gen; loads != 1 {
		t.Errorf("picking one user started %d loads", loads)
	}
	if h.mfa().err != "" {
		t.Errorf("the load of %s failed: %s", want, h.mfa().err)
	}
}

// esc closes the user picker and leaves the user shown as it was.
func TestMfaPoliciesUserPickerEscKeepsTheUser(t *testing.T) {
	d := servertest.StartDemo(t)
	h := demoHarnessWithin(t, d.Client("alice"), ProofSettings{Apps: d.Info.EnclaveApps}, largeOrgCommands)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	h.gotoScreen("MFA policies")
	before, gen := h.mfa().userID, h.mfa().gen
	h.key("u")
	h.typeText("bob")
	h.key("esc")
	if h.mfa().userID != before || h.mfa().gen != gen {
		t.Errorf("esc changed the user (%s → %s) or loaded (%d loads)", before, h.mfa().userID, h.mfa().gen-gen)
	}
}

// Stepping through users quickly (U) abandons each load as the next starts,
// rather than piling them up: the earlier load's requests are cancelled.
func TestMfaPoliciesNextUserCancelsTheLoadInFlight(t *testing.T) {
	d := servertest.StartDemo(t)
	h := demoHarnessWithin(t, d.Client("alice"), ProofSettings{Apps: d.Info.EnclaveApps}, largeOrgCommands)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	h.gotoScreen("MFA policies")
	m := h.mfa()
	first := m.showUser(m.nextUser())
	second := m.showUser(m.nextUser())
	msg, ok := first().(mfaLoadedMsg)
	if !ok || !errors.Is(msg.err, context.Canceled) {
		t.Errorf("the first load ran on after the second started: %+v", msg)
	}
	if msg, ok := second().(mfaLoadedMsg); !ok || msg.err != nil {
		t.Errorf("the last load failed: %+v", msg)
	}
}

// The palette offers both ways to another user's MFA policies, each running
// what it names: "picked by name" opens the picker, "next user" shows the
// next user at once.
func TestMfaPalettePicksAUserOrStepsToTheNext(t *testing.T) {
	d := servertest.StartDemo(t)
	h := demoHarness(t, d, nil)
	h.gotoScreen("MFA policies")
	runPaletteCommand := func(name string) {
		t.Helper()
		h.key(":")
		h.typeText(name)
		h.key("enter")
	}
	runPaletteCommand("MFA policies of a user picked by name")
	if _, ok := h.root.dialogs.Top().(*pickerDialog); !ok {
		t.Fatalf("the palette's pick entry opened no user picker:\n%s", h.frame())
	}
	h.key("esc")
	before := h.mfa().userID
	runPaletteCommand("MFA policies of the next user")
	if h.root.dialogs.Top() != nil {
		t.Fatalf("the palette's next-user entry opened a dialog:\n%s", h.frame())
	}
	if h.mfa().userID == before {
		t.Errorf("the palette's next-user entry did not step from %s", before)
	}
}

// In an organization of one user, the palette's MFA user entries say why
// they are off (no other user), not "close the policy first" with no policy
// open.
func TestMfaPaletteUserEntriesSayWhyTheyAreOff(t *testing.T) {
	fake := &fakeClient{users: governanceUsers()[:1], mfaPolicies: alicePolicies()}
	h := newHarnessWith(t, fake, fake, theme.Options{Dark: true, NoColor: true}, 0)
	h.fake = fake
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	h.gotoScreen("MFA policies")
	if h.mfa().list.IsOpen() {
		t.Fatal("setup: a policy is open")
	}
	for _, c := range h.mfa().Commands() {
		if strings.Contains(c.Name, "user") && !strings.Contains(c.Disabled, "no other user") {
			t.Errorf("%q: off for %q, want that there is no other user", c.Name, c.Disabled)
		}
	}
}
