package screens

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui/theme"
)

// evalsFailing fails get_policy_evaluations for the activities in failing,
// or for every activity while all is set.
type evalsFailing struct {
	*fakeClient
	all     *bool
	failing map[string]bool
}

func (e evalsFailing) GetPolicyEvaluations(ctx context.Context, id string) ([]api.PolicyEvaluation, error) {
	if (e.all != nil && *e.all) || e.failing[id] {
		return nil, fmt.Errorf("get_policy_evaluations %s: 503 Service Unavailable", id)
	}
	return e.fakeClient.GetPolicyEvaluations(ctx, id)
}

func policiesConsole(t *testing.T, c evalsFailing) *harness {
	t.Helper()
	h := newHarnessWith(t, c, c, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	h.toPolicies()
	return h
}

// Once the recent evaluations were wanted, a failing evaluation read must not
// throw the policies away: r still shows a policy created since.
func TestPolicyListRefreshesWhileEvaluationsFail(t *testing.T) {
	fail := false
	inner := &fakeClient{activities: sampleActivities()}
	h := policiesConsole(t, evalsFailing{fakeClient: inner, all: &fail})
	h.key("e") // the recent evaluations are wanted from now on
	h.key("e") // back to the policies
	fail = true
	inner.mu.Lock()
	inner.policies = []api.Policy{
		{PolicyID: "pol-ops", PolicyName: "Ops need two approvers", Effect: api.EffectAllow, Condition: "true"},
		{PolicyID: "pol-new", PolicyName: "Brand new deny", Effect: api.EffectDeny, Condition: "true"},
	}
	inner.mu.Unlock()
	h.key("r")
	out := h.frame()
	if !strings.Contains(out, "Brand new deny") {
		t.Fatalf("after r the policy list lacks the new policy (the evaluations failed):\n%s", out)
	}
	h.key("r") // and again: one failure does not stop later refreshes
	if !strings.Contains(h.frame(), "Brand new deny") {
		t.Errorf("a second refresh lost the policies:\n%s", h.frame())
	}
}

// A policy's detail never says it decided "none" of activities that could
// not be read: it says they did not load, and why.
func TestPolicyDetailSaysRecentNotLoadedRatherThanNone(t *testing.T) {
	all := true
	h := policiesConsole(t, evalsFailing{fakeClient: &fakeClient{activities: sampleActivities()}, all: &all})
	h.key("enter")
	out := h.frame()
	if strings.Contains(out, "(0 of the last 0)") || strings.Contains(out, "none") {
		t.Errorf("the detail says the policy decided none, though the evaluations failed to load:\n%s", out)
	}
	if !strings.Contains(out, "not loaded") || !strings.Contains(out, "503 Service Unavailable") {
		t.Errorf("the detail does not say the recent activities did not load, nor why:\n%s", out)
	}
}

// One activity whose evaluations cannot be read is marked as such; the
// others still show, and the count says one was not read.
func TestOneUnreadableEvaluationIsMarkedNotFatal(t *testing.T) {
	h := policiesConsole(t, evalsFailing{fakeClient: &fakeClient{activities: sampleActivities()},
		failing: map[string]bool{"act-keys": true}})
	h.key("enter")
	out := h.frame()
	if !strings.Contains(out, "of the last 3)") || !strings.Contains(out, "evaluations of 1 of them could not be read") {
		t.Errorf("the detail does not count the 3 recent activities and the 1 unread:\n%s", out)
	}
	h.key("esc")
	h.key("e")
	out = h.frame()
	if !strings.Contains(out, "could not be read") || !strings.Contains(out, "set feature WEBHOOK") {
		t.Errorf("the evaluations view does not show the read ones and mark the unread one:\n%s", out)
	}
}

// The evaluations view after its refresh failed still shows the last load's
// rows: the status bar must mark them stale, as it does the policies list,
// even though the policies themselves refreshed.
func TestEvaluationsViewStaleAfterFailedRefresh(t *testing.T) {
	fail := false
	inner := &fakeClient{activities: sampleActivities()}
	h := policiesConsole(t, evalsFailing{fakeClient: inner, all: &fail})
	h.key("e")
	if !strings.Contains(h.frame(), "set feature WEBHOOK") {
		t.Fatalf("the evaluations did not load:\n%s", h.frame())
	}
	fail = true
	h.key("r")
	st := h.policies().Status()
	if !strings.Contains(st.Err, "503") || !st.Stale {
		t.Errorf("after a failed refresh of the evaluations the status is not stale with the error: %+v", st)
	}
	lines := strings.Split(h.frame(), "\n")
	if bar := lines[len(lines)-1]; !strings.Contains(bar, "stale") {
		t.Errorf("the status bar does not mark the evaluations shown as stale: %q", bar)
	}
	if !strings.Contains(h.frame(), "set feature WEBHOOK") {
		t.Errorf("the failed refresh threw away the evaluations last loaded:\n%s", h.frame())
	}

	fail = false
	h.key("r")
	if st := h.policies().Status(); st.Stale || st.Err != "" {
		t.Errorf("a refresh that succeeded left the evaluations stale: %+v", st)
	}
}
