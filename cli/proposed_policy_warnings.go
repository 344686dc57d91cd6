package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/ui"
)

// policyWarningsBlock is what the condition and consensus of the policy in
// (exact) proposes do differently on the real service (a comparison no
// activity ever meets, a parameter the service does not expose, an
// approver's field its User does not have: a deny so written never denies),
// one escaped WARNING line each under a heading naming the part, in the
// words the console's vote dialog and activity detail use
// (policy.PolicyWarningTexts); "" when in proposes no policy or it has none.
// The author was warned, never stopped: the approver is the last to read it.
func policyWarningsBlock(in api.Intent) string {
	var b strings.Builder
	part := ""
	for _, w := range policyWarnings(in) {
		if w.Part() != part {
			part = w.Part()
			b.WriteString(part + ":\n")
		}
		b.WriteString("  WARNING: " + w.Text + "\n")
	}
	return b.String()
}

// policyWarnings are the warnings, escaped, of the policy in proposes
// (policy.PolicyWarningTexts), none when it proposes none.
func policyWarnings(in api.Intent) []policy.WarningText {
	p := in.CreatePolicyIntentV3
	if p == nil {
		return nil
	}
	ws := policy.PolicyWarningTexts(p.Condition, p.Consensus, quotedInside)
	for i := range ws {
		ws[i].Text = ui.Clean(ws[i].Text)
	}
	return ws
}

// warnPolicyUnread says on standard error, as `vigil: warning: the policy's
// condition: …` (or consensus) lines, the warnings the prompt would have
// shown (policyWarningsBlock): --yes reads no prompt, and the approver is the
// last to read them.
func warnPolicyUnread(stderr io.Writer, in api.Intent) {
	for _, w := range policyWarnings(in) {
		fmt.Fprintf(stderr, "vigil: warning: %s: %s\n", w.Part(), w.Text)
	}
}

// quotedInside is a source line as activity get and the vote prompt print
// it (api.Quote), without the quotes around it: what a warning's column
// counts in. Quote's note after the closing quote (" (not NFC)", "
// (Cyrillic)") is left out: it is printed after the line, not before the
// token. The closing quote is Quote's last '"' (one inside is escaped, a
// note holds none).
func quotedInside(line string) string {
	q := api.Quote(line)
	return q[1:strings.LastIndexByte(q, '"')]
}
