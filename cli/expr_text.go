package cli

import (
	"strings"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// exprText is a stored policy expression for fields: its lines, each escaped,
// joined by real line breaks, which fields draws under the label. Joined on
// one line with a \n, a `// comment` would seem to swallow the code after it
// (`|| true` on the next line), which the engine runs: CEL ends a comment
// only at a line break. src must be exact (as the service sent it).
func exprText(src string) string {
	if src == "" {
		return ""
	}
	lines := api.ExprSourceLines(src)
	for i, l := range lines {
		lines[i] = api.Sanitize(l)
	}
	return strings.Join(lines, "\n")
}

// exprCell is a stored expression in a table cell of at most max runes: on
// one line without its comments (policy.OneLine, as the console's lists show
// it), so that cutting it cannot leave a comment that seems to end it. src
// must be exact.
func exprCell(src string, max int) string {
	one := policy.OneLine(src)
	if strings.TrimSpace(one) == "" && strings.TrimSpace(src) != "" {
		return "(only comments)" // not "—", which reads as none
	}
	return oneLine(api.Sanitize(one), max)
}
