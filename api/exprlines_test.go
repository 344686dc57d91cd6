package api_test

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// ExprSourceLines splits where the policy engine's tokenizer sees a line
// break outside a string: a break inside a string (”'…”', r"""…""", an
// unterminated one) never starts a line, else its text could pass for code
// or a comment.
func TestExprSourceLinesSplitOutsideStrings(t *testing.T) {
	for _, src := range []string{
		"activity.resource == '''USER\n// only user resources''' || true",
		"a == r'''x\\'''\n|| true",
		"a == \"\"\"x\r\ny\"\"\" // c'\n|| b == 'q'",
		"br'''\n''' == b\n// it's\n'unterminated\n",
		"x == 'a\\'\n' && y\r\n",
		"R\"\"\"\\\"\"\"\"\n1",
	} {
		want := 1
		for _, tok := range policy.Tokens(src) {
			if tok.Kind != policy.TokenString {
				want += strings.Count(tok.Text, "\n")
			}
		}
		if got := api.ExprSourceLines(src); len(got) != want {
			t.Errorf("%q: %d lines %q, want %d (a line for each break outside a string)", src, len(got), got, want)
		}
	}
}
