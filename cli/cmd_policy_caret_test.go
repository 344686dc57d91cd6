package cli

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// The ^ under a diagnostic points at the problem as the terminal shows the
// line: a tab and an invisible character print as their escapes (\t,
// \u200b), a wide character takes two cells. Each condition's problem is the
// undeclared `foo`, so the caret must sit under its f.
func TestPolicyCheckCaretUnderTheProblem(t *testing.T) {
	for _, cond := range []string{
		"activity.type ==\t\t1 &&  foo",
		"activity.params.policyName == '日本語日本語' && foo",
		"activity.params.policyName == '\u200b\u200b' && foo",
		"activity.params.policyName == 'e\u0301' && foo", // a combining accent takes no cell
	} {
		code, out, errOut := runVigil(t, nil, "", "policy", "check", "--condition", cond)
		wantExit(t, cond, code, 1, out, errOut)
		lines := strings.Split(errOut, "\n")
		i := -1
		for j, l := range lines {
			if strings.Contains(l, "foo") && strings.HasPrefix(l, "  ") && j+1 < len(lines) && strings.Contains(lines[j+1], "^") {
				i = j
			}
		}
		if i < 0 {
			t.Errorf("%q: no line marked with ^:\n%s", cond, errOut)
			continue
		}
		shown, caret := lines[i], lines[i+1]
		want := ansi.StringWidth(shown[:strings.LastIndex(shown, "foo")])
		if got := strings.Index(caret, "^"); got != want {
			t.Errorf("%q: the ^ is at cell %d, foo at cell %d:\n%s\n%s", cond, got, want, shown, caret)
		}
	}
}
