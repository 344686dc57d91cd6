package screens

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
)

// A set_organization_feature sent with `vigil request` (the service checks
// only WEBHOOK's value) whose WEBAUTHN_ORIGINS value the console's own form
// refuses — a trailing "/" that no browser origin has, so every passkey of
// the organization is refused once it is approved — is shown to the
// approver with the form's refusal, first and escaped.
func TestVoteDialogWarnsFirstOfAFeatureValueTheFormRefuses(t *testing.T) {
	for _, value := range []string{"https://vigil.local/", "", "*", "https://vigil.local/\x1b[2J"} {
		in := api.Intent{SetOrganizationFeatureIntent: &api.SetOrganizationFeatureParams{Name: api.FeatureWebauthnOrigins, Value: value}}
		refusal := api.CheckFeatureValue(api.FeatureWebauthnOrigins, value)
		if refusal == nil {
			t.Fatalf("precondition: the form accepts %q", value)
		}
		act := pendingActivity("act-origins", "bob", time.Minute, in, "ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE")
		h := newHarness(t, &fakeClient{activities: []api.Activity{act}}, false, 0)
		h.send(tea.WindowSizeMsg{Width: 120, Height: 50})
		h.selectActivityID(act.ID)
		d := newPendingVote(h.activities().c, &act, true)
		text := strings.Join(d.dialog.Lines, "\n")
		warning := strings.Index(text, "WARNING")
		if warning < 0 || warning > strings.Index(text, "feature:") || !strings.Contains(text, api.Sanitize(refusal.Error())) || !strings.Contains(text, "passkey") {
			t.Errorf("WEBAUTHN_ORIGINS = %q: the vote dialog does not warn first, with the form's refusal (%v):\n%s", value, refusal, text)
		}
		if strings.Contains(text, "\x1b") {
			t.Errorf("WEBAUTHN_ORIGINS = %q: an escape sequence reaches the dialog:\n%q", value, text)
		}
	}
}
