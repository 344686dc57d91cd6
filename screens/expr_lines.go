package screens

import (
	"strings"

	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

// exprLines draws a stored expression line by line, each highlighted as
// highlightExpr does. Joined on one line, a `// comment` would seem to swallow
// the code after it (`|| true` on the next line, which the service runs).
// The source is tokenized whole, so a string spanning lines stays a string;
// a line that cleaning changes is shown cleaned and unstyled.
func exprLines(th *theme.Theme, src string) []string {
	var lines []string
	var cur []policy.Token
	flush := func(last bool) {
		if n := len(cur); n > 0 && !last {
			// \r\n ends a line as \n does; a lone \r stays, escaped.
			cur[n-1].Text = strings.TrimSuffix(cur[n-1].Text, "\r")
		}
		var raw strings.Builder
		for _, t := range cur {
			raw.WriteString(t.Text)
		}
		if clean := ui.Clean(raw.String()); clean != raw.String() {
			lines = append(lines, clean)
		} else {
			lines = append(lines, styleTokens(th, cur))
		}
		cur = nil
	}
	for _, t := range policy.Tokens(src) {
		for i, part := range strings.Split(t.Text, "\n") {
			if i > 0 {
				flush(false)
			}
			if part != "" {
				cur = append(cur, policy.Token{Kind: t.Kind, Text: part})
			}
		}
	}
	flush(true)
	return lines
}

// writeExpr adds a stored expression to a detail, a line for each of its lines.
func writeExpr(b *ui.DetailBuilder, th *theme.Theme, src string) {
	for _, l := range exprLines(th, src) {
		b.Styled(l)
	}
}

// styleTokens renders tokens in the theme's expression styles.
func styleTokens(th *theme.Theme, tokens []policy.Token) string {
	var b strings.Builder
	for _, t := range tokens {
		text := ui.Clean(t.Text)
		switch t.Kind {
		case policy.TokenKeyword:
			text = th.ExprKeyword.Render(text)
		case policy.TokenString:
			text = th.ExprString.Render(text)
		case policy.TokenNumber:
			text = th.ExprNumber.Render(text)
		case policy.TokenIdent:
			text = th.ExprIdent.Render(text)
		case policy.TokenOperator:
			text = th.ExprOperator.Render(text)
		case policy.TokenComment:
			text = th.ExprComment.Render(text)
		}
		b.WriteString(text)
	}
	return b.String()
}

// writeExprField adds "label: expression" to a detail, the expression's
// later lines under its first.
func writeExprField(b *ui.DetailBuilder, th *theme.Theme, label, src string) {
	w := b.LabelWidth
	if w <= 0 {
		w = 16
	}
	for i, l := range exprLines(th, src) {
		head := strings.Repeat(" ", w)
		if i == 0 {
			head = th.Label.Render(ui.Clean(label) + ":" + strings.Repeat(" ", max(w-len(label)-1, 1)))
		}
		b.Styled(head + l)
	}
}
