package screens

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui/theme"
)

// A user "\u0430lice" (Cyrillic а) and a key "c\u043ensole" (Cyrillic о) must
// never read as alice and console: not in the Users list, not in the record,
// not in the confirm that deletes the key.
func TestUsersMarkLookalikeUserAndKeyNames(t *testing.T) {
	users := governanceUsers()
	users = append(users, api.User{UserID: "u-fake", UserName: "\u0430lice", UserEmail: "alice@acme.test",
		APIKeys: []api.APIKey{apiKey("k-fake", "c\u043ensole", "02dd03", testNow.Add(-time.Hour), "")}})
	h, _ := usersHarnessWith(t, false, users)
	out := h.frame()
	if strings.Count(out, "alice    alice@acme.test") >= 2 || !strings.Contains(out, `\u0430`) {
		t.Errorf("the Users list shows the look-alike user as plain alice:\n%s", out)
	}
	h.key("G")
	h.key("enter")
	out = h.frame()
	if !strings.Contains(out, `\u0430`) || !strings.Contains(out, `\u043e`) {
		t.Errorf("the record of the look-alike user shows neither look-alike escaped:\n%s", out)
	}
	h.key("d")
	out = h.frame()
	if !strings.Contains(out, `\u043e`) {
		t.Errorf("the deletion confirm names the look-alike key plainly:\n%s", out)
	}
}

func TestMfaPoliciesMarkLookalikePolicyName(t *testing.T) {
	fake := &fakeClient{users: governanceUsers(), mfaPolicies: map[string][]api.MfaPolicy{"u-alice": {
		{MfaPolicyID: "mp-1", MfaPolicyName: "P\u0430sskey for policy changes", Order: 0, Condition: "true",
			RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthSession}}}}}}}}
	h := newHarnessWith(t, fake, fake, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	h.gotoScreen("MFA policies")
	if out := h.frame(); !strings.Contains(out, `\u0430`) {
		t.Errorf("the MFA policies list shows the look-alike name plainly:\n%s", out)
	}
	h.key("enter")
	if out := h.frame(); !strings.Contains(out, `\u0430`) {
		t.Errorf("the MFA policy detail heading shows the look-alike name plainly:\n%s", out)
	}
}

// The service's ids are UUIDv7: their first 8 characters are a timestamp that
// every credential created the same minute shares. Two policies that require
// different passkeys must read differently, in the preview and the detail,
// and name the passkey the user knows it by.
func TestMfaStepsTellRequiredPasskeysApart(t *testing.T) {
	const blue, red = "01a220b0-ff73-7253-8311-01558e6f28c3", "01a220b0-ffa9-7988-9473-d27b1f43872a"
	users := governanceUsers()
	users[0].Authenticators = []api.Authenticator{{AuthenticatorID: blue, AuthenticatorName: "YubiKey blue"},
		{AuthenticatorID: red, AuthenticatorName: "YubiKey red"}}
	step := func(id string) []api.AuthenticationStep {
		return []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthPasskey, ID: id}}}}
	}
	fake := &fakeClient{users: users, mfaPolicies: map[string][]api.MfaPolicy{"u-alice": {
		{MfaPolicyID: "mp-1", MfaPolicyName: "one", Order: 0, Condition: "true", RequiredAuthenticationMethods: step(blue)},
		{MfaPolicyID: "mp-2", MfaPolicyName: "two", Order: 1, Condition: "true", RequiredAuthenticationMethods: step(red)}}}}
	h := newHarnessWith(t, fake, fake, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	h.gotoScreen("MFA policies")
	stepLine := func() string {
		for _, l := range strings.Split(h.frame(), "\n") {
			if i := strings.Index(l, "step 1:"); i >= 0 {
				return strings.TrimSpace(l[i:])
			}
		}
		t.Fatalf("no step line:\n%s", h.frame())
		return ""
	}
	previewOne := stepLine()
	h.key("enter")
	detailOne := stepLine()
	h.key("esc")
	h.key("j")
	previewTwo := stepLine()
	h.key("enter")
	detailTwo := stepLine()
	if previewOne == previewTwo {
		t.Errorf("two policies requiring different passkeys read the same in the preview: %q", previewOne)
	}
	if detailOne == detailTwo {
		t.Errorf("two policies requiring different passkeys read the same in their detail: %q", detailOne)
	}
	for _, c := range []struct{ line, name, id string }{{previewOne, "YubiKey blue", ""}, {detailOne, "YubiKey blue", blue}, {detailTwo, "YubiKey red", red}} {
		if !strings.Contains(c.line, api.Quote(c.name)) || !strings.Contains(c.line, c.id) {
			t.Errorf("step %q does not name the passkey %s (%s)", c.line, api.Quote(c.name), c.id)
		}
	}
}

// The confirm of create_mfa_policy names the passkey a step requires, with its
// whole id: the root member approving it must see which one.
func TestMfaCreateConfirmNamesRequiredPasskey(t *testing.T) {
	h, _ := mfaHarness(t, false)
	h.key("n")
	h.typeText("pinned")
	h.send(tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl}) // steps: step 1 is PASSKEY
	h.key("i")                                           // pinned to alice's authenticator
	h.send(ctrlS)
	auth := governanceUsers()[0].Authenticators[0]
	out := h.frame()
	if !strings.Contains(out, "Create MFA policy") {
		t.Fatalf("no confirm:\n%s", out)
	}
	if !strings.Contains(out, api.Quote(auth.AuthenticatorName)+" "+auth.AuthenticatorID) {
		t.Errorf("the confirm does not name the passkey %q (%s):\n%s", auth.AuthenticatorName, auth.AuthenticatorID, out)
	}
}

// The signed-in user's own name in the status bar is marked like every other
// name: a whoami of "\u0430lice" (Cyrillic а) must not read as alice.
func TestStatusBarMarksLookalikeSignedInUser(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities(),
		who: &api.WhoamiResponse{OrganizationID: "org-1", OrganizationName: "Acme", UserID: "u-alice", Username: "\u0430lice"}}
	h := newHarness(t, fake, false, 0)
	lines := strings.Split(h.frame(), "\n")
	bar := lines[len(lines)-1]
	if strings.Contains(bar, "\u0430lice") || !strings.Contains(bar, `\u0430`) {
		t.Errorf("the status bar does not mark the look-alike user name: %q", bar)
	}

	// Before whoami answers the user is not known: no name, not an empty "".
	r := NewRoot(Options{Reader: fake, Submitter: fake, Profile: "demo", Theme: theme.Options{Dark: true, NoColor: true},
		Now: func() time.Time { return testNow }, Static: true})
	r.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	lines = strings.Split(r.Render(), "\n")
	if bar := lines[len(lines)-1]; strings.Contains(bar, `""`) {
		t.Errorf("before the user is known the status bar shows an empty name: %q", bar)
	}
}
