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
// The source is tokenized whole: a string holding a line break stays on
// one line, the break shown as \n; a line that cleaning changes is shown cleaned and unstyled.
func exprLines(th *theme.Theme, src string) []string {
	var lines []string
	for _, cur := range exprTokenLines(src) {
		raw := tokensText(cur)
		if clean := ui.Clean(raw); clean != raw {
			lines = append(lines, clean)
		} else {
			lines = append(lines, styleTokens(th, cur))
		}
	}
	return lines
}

// exprTextLines are exprLines unstyled and not cleaned, for the vote
// dialog (which cleans what it draws).
func exprTextLines(src string) []string {
	var lines []string
	for _, cur := range exprTokenLines(src) {
		lines = append(lines, tokensText(cur))
	}
	return lines
}

// exprTokenLines splits an expression's tokens at its line ends.
func exprTokenLines(src string) [][]policy.Token {
	var lines [][]policy.Token
	var cur []policy.Token
	flush := func(last bool) {
		if n := len(cur); n > 0 && !last {
			// \r\n ends a line as \n does; a lone \r stays, escaped.
			cur[n-1].Text = strings.TrimSuffix(cur[n-1].Text, "\r")
		}
		lines = append(lines, cur)
		cur = nil
	}
	for _, t := range policy.Tokens(src) {
		if t.Kind == policy.TokenString {
			// A break inside a string ('''…''') is shown as \n on its
			// line: split there, the string's next line could read as code
			// or a comment (`// …''' || true`).
			text := strings.ReplaceAll(t.Text, "\r\n", `\r\n`)
			cur = append(cur, policy.Token{Kind: t.Kind, Text: strings.ReplaceAll(text, "\n", `\n`)})
			continue
		}
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

func tokensText(tokens []policy.Token) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteString(t.Text)
	}
	return b.String()
}

// exprLookalike is the warning that an expression holds look-alike letters,
// or "". Shown bare, 'D\u0415LETE' (a Cyrillic Е) reads as 'DELETE': a
// condition that never matches would pass for one that protects.
func exprLookalike(label, src string) string {
	q, ok := ui.LooksAlike(src)
	if !ok {
		return ""
	}
	return "⚠ look-alike characters in the " + label + " (they are not the letters they look like): " + q
}

// exprFieldLines appends "label: expression" to a vote dialog's lines, the
// expression's later lines under its first, then the look-alike warning
// (marked in warn) when there is one: the dialog shows what the detail does.
func exprFieldLines(lines []string, warn map[int]bool, label, src string) []string {
	for i, l := range exprTextLines(src) {
		if i == 0 {
			lines = append(lines, field(label, l))
		} else {
			lines = append(lines, strings.Repeat(" ", len(field("", "")))+l)
		}
	}
	if w := exprLookalike(label, src); w != "" {
		warn[len(lines)] = true
		lines = append(lines, w)
	}
	return lines
}

// writeExpr adds a stored expression to a detail, a line for each of its
// lines, then the look-alike warning naming it by label, if any.
func writeExpr(b *ui.DetailBuilder, th *theme.Theme, label, src string) {
	for _, l := range exprLines(th, src) {
		b.Styled(l)
	}
	writeExprLookalike(b, th, label, src)
}

func writeExprLookalike(b *ui.DetailBuilder, th *theme.Theme, label, src string) {
	if w := exprLookalike(label, src); w != "" {
		b.Styled(th.Warn.Render(ui.Clean(w)))
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
	writeExprLookalike(b, th, label, src)
}
