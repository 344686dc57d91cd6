package screens

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
)

// unknownEffects are effects the engine treats as neither allow nor deny
// (policy.decide: an error) that, with EFFECT_ trimmed and nothing else,
// draw exactly as a real one. Only a broken or hostile service sends them:
// the local one refuses them at submission.
var unknownEffects = []struct{ name, effect, escaped string }{
	{"no prefix", "ALLOW", `"ALLOW"`},
	{"trailing space", "EFFECT_ALLOW ", `"EFFECT_ALLOW "`},
	{"look-alike", "EFFECT_\u0410LLOW", `\u0410LLOW`}, // a Cyrillic А
}

// shownAsUnknownEffect reports whether text shows the effect quoted and
// marked unknown, on one line.
func shownAsUnknownEffect(text, escaped string) bool {
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, escaped) && strings.Contains(l, "unknown effect") {
			return true
		}
	}
	return false
}

// The list's EFFECT column and the detail's Effect field say what the
// policy's effect is: one the engine does not know never reads as ALLOW.
func TestPoliciesShowUnknownEffectQuoted(t *testing.T) {
	for _, tc := range unknownEffects {
		t.Run(tc.name, func(t *testing.T) {
			pol := api.Policy{PolicyID: "pol-x", PolicyName: "Treasury moves", Effect: tc.effect, Condition: "true",
				CreatedAt: api.NewTime(testNow.Add(-time.Hour)), UpdatedAt: api.NewTime(testNow.Add(-time.Hour))}
			h := newHarness(t, &fakeClient{activities: sampleActivities(), policies: []api.Policy{pol}}, false, 0)
			h.send(tea.WindowSizeMsg{Width: 200, Height: 60})
			p := h.toPolicies()
			if cell := p.effectCell(pol); !strings.Contains(cell, tc.escaped) || !strings.Contains(cell, "unknown effect") {
				t.Errorf("the EFFECT cell reads %q: the effect %q is not shown quoted and marked unknown", cell, tc.effect)
			}
			h.key("enter")
			if out := h.plainFrame(); !shownAsUnknownEffect(out, tc.escaped) {
				t.Errorf("the policy's detail does not show the effect %q quoted and marked unknown:\n%s", tc.effect, out)
			}
		})
	}
}

// The vote dialog on a create_policy activity says the same: a member
// approving it must not read an unknown effect as ALLOW.
func TestVoteDialogShowsUnknownEffectQuoted(t *testing.T) {
	for _, tc := range unknownEffects {
		t.Run(tc.name, func(t *testing.T) {
			p := api.CreatePolicyParams{PolicyName: "treasury moves", Effect: tc.effect, Condition: "true", Consensus: "approvers.count() >= 1"}
			act := pendingActivity("act-pol", "bob", time.Minute, api.Intent{CreatePolicyIntentV3: &p}, api.TypeCreatePolicyV3)
			h := newHarness(t, &fakeClient{activities: []api.Activity{act}}, false, 0)
			h.send(tea.WindowSizeMsg{Width: 200, Height: 60})
			h.selectActivityID(act.ID)
			if flat := approveDialogText(t, h); !shownAsUnknownEffect(flat, tc.escaped) {
				t.Errorf("the vote dialog does not show the effect %q quoted and marked unknown:\n%s", tc.effect, flat)
			}
			if what := intentWhat(h.root.common, &act); !strings.Contains(what, tc.escaped) || !strings.Contains(what, "unknown effect") {
				t.Errorf("the activity reads %q: the effect %q is not shown quoted and marked unknown", what, tc.effect)
			}
		})
	}
}
