package cli

import (
	"strings"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/ui"
)

// conditionWarningsBlock is what the condition of the policy in (exact)
// proposes does differently on the real service (a comparison no activity
// ever meets, a parameter the service does not expose: a deny so written
// never denies), one escaped WARNING line each under a heading, in the words
// the console's vote dialog and activity detail use
// (policy.ConditionWarningTexts); "" when in proposes no policy or its
// condition has none. The author was warned, never stopped: the approver is
// the last to read it.
func conditionWarningsBlock(in api.Intent) string {
	p := in.CreatePolicyIntentV3
	if p == nil {
		return ""
	}
	ws := policy.ConditionWarningTexts(p.Condition)
	if len(ws) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("the policy's condition:\n")
	for _, w := range ws {
		b.WriteString("  WARNING: " + ui.Clean(w) + "\n")
	}
	return b.String()
}
