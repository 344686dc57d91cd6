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
// unchecked — counted exactly when one more than the bound is pending, and as
// "more than" the page listed when more are.
func TestMfaStatusHeadingCountsPendingItDidNotCheck(t *testing.T) {
	for _, tc := range []struct {
		pending int
		want    string
	}{
		{maxMfaStatusActivities + 1, fmt.Sprintf("%d checked of %d; the 1 oldest not checked", maxMfaStatusActivities, maxMfaStatusActivities+1)},
		{maxMfaStatusActivities + 5, fmt.Sprintf("%d checked of more than %d; the older ones not checked", maxMfaStatusActivities, maxMfaStatusActivities+1)},
	} {
		t.Run(fmt.Sprint(tc.pending), func(t *testing.T) {
			heading, out := mfaStatusHeadingWith(t, tc.pending)
			if !strings.Contains(heading, tc.want) {
				t.Errorf("%d activities are pending, %d checked; the heading says %q, want %q:\n%s", tc.pending, maxMfaStatusActivities, heading, tc.want, out)
			}
			if got := strings.Count(out, "not voted yet"); got != maxMfaStatusActivities {
				t.Errorf("%d statuses shown, want the %d checked", got, maxMfaStatusActivities)
			}
		})
	}
}

// mfaStatusHeadingWith shows alice's MFA status in full with pending
// activities pending, and returns its heading line and the frame.
func mfaStatusHeadingWith(t *testing.T, pending int) (string, string) {
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
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "MFA status of alice for pending activities") {
			return strings.TrimSpace(l), out
		}
	}
	return "", out
}
