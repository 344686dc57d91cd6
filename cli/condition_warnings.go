package cli

import (
	"fmt"
	"io"
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
	ws := conditionWarnings(in)
	if len(ws) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("the policy's condition:\n")
	for _, w := range ws {
		b.WriteString("  WARNING: " + w + "\n")
	}
	return b.String()
}

// conditionWarnings are the escaped warnings of the condition of the policy
// in proposes (policy.ConditionWarningTexts), none when it proposes none.
func conditionWarnings(in api.Intent) []string {
	p := in.CreatePolicyIntentV3
	if p == nil {
		return nil
	}
	ws := policy.ConditionWarningTexts(p.Condition)
	for i, w := range ws {
		ws[i] = ui.Clean(w)
	}
	return ws
}

// warnConditionUnread says on standard error, as `vigil: warning: the
// policy's condition: …` lines, the condition warnings the prompt would have
// shown (conditionWarningsBlock): --yes reads no prompt, and the approver is
// the last to read them.
func warnConditionUnread(stderr io.Writer, in api.Intent) {
	for _, w := range conditionWarnings(in) {
		fmt.Fprintf(stderr, "vigil: warning: the policy's condition: %s\n", w)
	}
}
