package screens

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// The unreadable-policy summary names a policy's effect as the rest of the
// console does: a known one without its EFFECT_ prefix, an unknown one quoted
// (a look-alike letter escaped) and said to be unknown, never as the service
// sent it.
func TestUnreadablePolicySummaryEscapesItsEffect(t *testing.T) {
	for _, tc := range []struct {
		effect, want, notWant string
	}{
		{api.EffectAllow, `policy "Stored" (ALLOW) cannot be read by this console`, "EFFECT_ALLOW"},
		{"EFFECT_\u0410LLOW", `policy "Stored" ("EFFECT_\u0410LLOW" (unknown effect: neither ALLOW nor DENY)) cannot be read`, "EFFECT_\u0410LLOW"},
		{"EFFECT_ALLOW\x1b[2J", `("EFFECT_ALLOW\u001b[2J" (unknown effect`, "\x1b"},
	} {
		records := []api.Policy{{PolicyID: "p-1", PolicyName: "Stored", Effect: tc.effect, Condition: "newerFunction()"}}
		ec := newEvaluationContext(nil, nil, api.OrganizationConfigs{Quorum: api.Quorum{Threshold: 1}}, records)
		s := ec.unreadableSummary()
		if !strings.Contains(s, tc.want) || strings.Contains(s, tc.notWant) {
			t.Errorf("effect %q: summary %q, want %q in it and no %q", tc.effect, s, tc.want, tc.notWant)
		}
	}
}
