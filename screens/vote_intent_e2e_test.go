package screens

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// flatBody is the vote dialog's text as one line, spaces collapsed.
func flatBody(t *testing.T, frame string) string {
	t.Helper()
	body, _ := dialogBody(t, frame, "Approve this activity?")
	return strings.Join(strings.Fields(strings.Join(body, " ")), " ")
}

// An invitation is sent in a user's name, so a voter must see whose: the
// vote dialog and the detail name the sender, and one that is no user of the
// organization (the service fails it only after the quorum voted) is an
// "unknown user", drawn as a warning. Against the local service.
func TestEndToEndInvitationSenderIsShownToVoters(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	carol := memberID(t, d, "carol")
	bogus := carol + "Q"
	invite := func(sender string) *api.Activity {
		act, err := d.Client("alice").CreateInvitations(ctx, api.CreateInvitationsParams{Invitations: []api.Invitation{{
			ReceiverUserName: "eve", ReceiverUserEmail: "eve@example.com", ReceiverUserTags: []string{},
			AccessType: api.AccessTypeWeb, SenderUserID: sender}}})
		if err != nil || act.Status != api.StatusConsensusNeeded {
			t.Fatalf("invite as %s: %+v %v", sender, act, err)
		}
		return act
	}
	asCarol, asNobody := invite(carol), invite(bogus)

	bob := d.Client("bob")
	h := memberConsole(t, bob)

	h.selectActivityID(asNobody.ID)
	h.key("a")
	if flat := flatBody(t, h.frame()); !strings.Contains(flat, "sender: unknown user "+bogus) {
		t.Errorf("the dialog does not say the sender is no known user:\n%s", flat)
	}
	h.key("n")
	h.selectActivityID(asCarol.ID) // listed under the newer one
	h.key("a")
	if flat := flatBody(t, h.frame()); !strings.Contains(flat, `sender: "carol" (`+carol+")") {
		t.Errorf("the dialog does not name the sender carol:\n%s", flat)
	}
	h.key("n")
	h.key("up")
	if got := h.activities().selected().ID; got != asNobody.ID {
		t.Fatalf("up selected %s, not the invitation from nobody", got)
	}
	h.key("enter")
	flat := strings.Join(strings.Fields(h.frame()), " ")
	for _, want := range []string{"Intent — invite 1 user as unknown user " + bogus, "invite 1 sender: unknown user " + bogus} {
		if !strings.Contains(flat, want) {
			t.Errorf("the detail lacks %q:\n%s", want, h.frame())
		}
	}

	// In colour the unknown sender is in the warning style, the known one not.
	hc := newHarnessWith(t, bob, bob, theme.Options{Dark: true}, 0)
	hc.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	warn := hc.root.common.Theme.Warn
	hc.selectActivityID(asNobody.ID)
	hc.key("a")
	if line := "  sender:    unknown user " + bogus; !strings.Contains(hc.root.Render(), warn.Render(line)) {
		t.Errorf("the unknown sender %q is not drawn as a warning", line)
	}
	hc.key("n")
	hc.selectActivityID(asCarol.ID)
	hc.key("a")
	if strings.Contains(hc.root.Render(), warn.Render("  sender:    carol ("+carol+")")) {
		t.Error("a known sender is drawn as a warning")
	}
}

// A feature change shows its approver the value it replaces, as the
// requester's own confirm does, or that the feature is not set now.
func TestEndToEndFeatureVoteShowsTheValueItReplaces(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	alice := d.Client("alice")
	cfg, err := alice.GetOrganizationConfigs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	current := map[string]string{}
	for _, f := range cfg.Features {
		current[f.Name] = f.Value
	}
	if current[api.FeatureOtpEmailAuth] != "enabled" {
		t.Fatalf("the demo should have OTP_EMAIL_AUTH enabled: %+v", cfg.Features)
	}
	if _, set := current[api.FeatureSMSAuth]; set {
		t.Fatalf("the demo should leave SMS_AUTH unset: %+v", cfg.Features)
	}
	set := func(name, value string) *api.Activity {
		act, err := alice.SetOrganizationFeature(ctx, api.SetOrganizationFeatureParams{Name: name, Value: value})
		if err != nil || act.Status != api.StatusConsensusNeeded {
			t.Fatalf("set %s: %+v %v", name, act, err)
		}
		return act
	}
	replacing, fresh := set(api.FeatureOtpEmailAuth, "disabled"), set(api.FeatureSMSAuth, "enabled")

	bob := d.Client("bob")
	h := memberConsole(t, bob)
	for _, tc := range []struct {
		act  *api.Activity
		want string
	}{
		{fresh, `feature: SMS_AUTH value: "enabled" replaces: (not set now)`}, // the newer, listed first
		{replacing, `feature: OTP_EMAIL_AUTH value: "disabled" replaces: "enabled"`},
	} {
		h.selectActivityID(tc.act.ID)
		h.key("a")
		if flat := flatBody(t, h.frame()); !strings.Contains(flat, tc.want) {
			t.Errorf("the dialog lacks %q:\n%s", tc.want, flat)
		}
		h.key("n")
	}
}
