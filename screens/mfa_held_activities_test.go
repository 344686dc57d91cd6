package screens

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui/theme"
)

// An activity a service holds for MFA (AUTHENTICATORS_NEEDED) is pending,
// and the one whose MFA status matters most: the MFA screen's status for
// pending activities lists it beside the CONSENSUS_NEEDED ones, marked held.
func TestMfaScreenListsActivitiesHeldForMfa(t *testing.T) {
	acts := []api.Activity{
		{ID: "act-held", Status: api.StatusAuthenticatorsNeeded, Type: api.TypeCreateUserTag, CreatedAt: api.NewTime(testNow)},
		{ID: "act-open", Status: api.StatusConsensusNeeded, Type: api.TypeCreateUserTag, CreatedAt: api.NewTime(testNow)},
	}
	fake := &fakeClient{users: governanceUsers(), mfaPolicies: alicePolicies(), activities: acts}
	h := newHarnessWith(t, fake, fake, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	h.gotoScreen("MFA policies")
	h.key("s")
	out := h.frame()
	if !strings.Contains(out, "act-open") {
		t.Fatalf("the pending activity is not listed at all:\n%s", out)
	}
	if !strings.Contains(out, "act-held") {
		t.Errorf("the activity held for MFA (AUTHENTICATORS_NEEDED) is not in the MFA status for pending activities:\n%s", out)
	}
	if !strings.Contains(out, "[held for MFA: "+api.StatusAuthenticatorsNeeded+"]") {
		t.Errorf("the activity held for MFA is not marked as held:\n%s", out)
	}
}
