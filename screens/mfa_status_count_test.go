package screens

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui/theme"
)

// The MFA screen checks the newest pending activities only (a bound on one
// load's get_mfa_status calls); its heading must not read as if those were all
// the pending ones: the oldest, often the ones stuck on MFA, are said to be
// unchecked.
func TestMfaStatusHeadingCountsPendingItDidNotCheck(t *testing.T) {
	pending := maxMfaStatusActivities + 5
	var acts []api.Activity
	for i := range pending {
		acts = append(acts, api.Activity{ID: fmt.Sprintf("act-%02d", i), Status: api.StatusConsensusNeeded,
			Type: api.TypeCreateUserTag, CreatedAt: api.NewTime(testNow.Add(-time.Duration(i) * time.Minute))})
	}
	fake := &fakeClient{users: governanceUsers(), mfaPolicies: alicePolicies(), activities: acts}
	h := newHarnessWith(t, fake, fake, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	h.gotoScreen("MFA policies")
	h.key("s")
	out := h.frame()
	var heading string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "MFA status of alice for pending activities") {
			heading = strings.TrimSpace(l)
		}
	}
	if !strings.Contains(heading, fmt.Sprint(pending)) || !strings.Contains(heading, fmt.Sprintf("%d oldest not checked", pending-maxMfaStatusActivities)) {
		t.Errorf("%d activities are pending, %d checked; the heading says %q:\n%s", pending, maxMfaStatusActivities, heading, out)
	}
	if got := strings.Count(out, "not voted yet"); got != maxMfaStatusActivities {
		t.Errorf("%d statuses shown, want the %d checked", got, maxMfaStatusActivities)
	}
}
