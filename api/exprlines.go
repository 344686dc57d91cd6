package api

import (
	"slices"
	"strings"
)

// ExprSourceLines are an expression's lines, as CEL reads them for its
// comments: split at each \n outside a string literal (a \r before one goes
// with it; a lone \r stays, for the caller to escape). A line break inside a
// string (”'…”' may hold one) is shown as the escape \n on its line:
// split there, the string's next line would start a line of its own, and
// `// …”' || true` would read as a comment hiding code. The lines are not
// otherwise escaped. The string rules are policy.Tokens' (r, b, br
// prefixes, triple quotes); api cannot import policy, which imports api.
func ExprSourceLines(src string) []string {
	var lines []string
	var cur strings.Builder
	rs := []rune(src)
	end := func() {
		lines = append(lines, strings.TrimSuffix(cur.String(), "\r"))
		cur.Reset()
	}
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case r == '\n':
			end()
			i++
		case r == '/' && i+1 < len(rs) && rs[i+1] == '/':
			// A comment: a quote in it starts no string.
			for i < len(rs) && rs[i] != '\n' {
				cur.WriteRune(rs[i])
				i++
			}
		case r == '\'' || r == '"':
			j := ExprStringEnd(rs, i, rawPrefix(rs, i))
			s := strings.ReplaceAll(string(rs[i:j]), "\r\n", `\r\n`)
			cur.WriteString(strings.ReplaceAll(s, "\n", `\n`))
			i = j
		case isIdentRune(r):
			// A whole word, so that a quote after it is judged by it.
			for i < len(rs) && isIdentRune(rs[i]) {
				cur.WriteRune(rs[i])
				i++
			}
		default:
			cur.WriteRune(r)
			i++
		}
	}
	lines = append(lines, cur.String()) // the last line keeps a lone \r
	return lines
}

func isIdentRune(r rune) bool {
	return r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r > 0x7f && !isExprSpace(r)
}

func isExprSpace(r rune) bool { return strings.ContainsRune(" \t\r\n\f\v\u0085\u00a0", r) }

// rawPrefix is whether the string whose quote is at q is raw: the word just
// before it is r or br (any case).
func rawPrefix(rs []rune, q int) bool {
	w := q
	for w > 0 && isIdentRune(rs[w-1]) {
		w--
	}
	word := strings.ToLower(string(rs[w:q]))
	return slices.Contains([]string{"r", "br"}, word)
}

// ExprStringEnd is the end of the CEL string literal whose opening quote is
// at q: after its closing quote (three for a triple-quoted one), or the end
// of rs when it is unterminated. Outside a raw string a backslash escapes
// the next character. The policy highlighter ends its strings by it too, so
// that the lines shown and the colours agree on where a string ends.
func ExprStringEnd(rs []rune, q int, raw bool) int {
	quote := rs[q : q+1]
	if q+2 < len(rs) && rs[q+1] == rs[q] && rs[q+2] == rs[q] {
		quote = rs[q : q+3]
	}
	for j := q + len(quote); j < len(rs); j++ {
		switch {
		case rs[j] == '\\' && !raw:
			j++
		case slices.Equal(rs[j:min(j+len(quote), len(rs))], quote):
			return j + len(quote)
		}
	}
	return len(rs)
}
